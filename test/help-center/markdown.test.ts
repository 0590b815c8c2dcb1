/**
 * The article renderer against known XSS payloads: whatever an author writes, no script element, no
 * event-handler attribute and no javascript:/vbscript:/data: URL reaches the page.
 */
import { describe, expect, it } from "vitest";
import { renderArticleMarkdown } from "../../src/pages/help-center/markdown";

const PAYLOADS = [
  "<script>window.__xss = 1</script>",
  "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
  "<scr<script>ipt>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  '<img src="/ok.png" onerror="alert(1)">',
  "<IMG SRC=javascript:alert('XSS')>",
  '<img src="jav&#x09;ascript:alert(1)">',
  "<img src=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)>",
  "<svg onload=alert(1)>",
  "<svg><script>alert(1)</script></svg>",
  "<math><mtext><script>alert(1)</script></mtext></math>",
  "<body onload=alert(1)>",
  "<iframe src=\"https://evil.example\"></iframe>",
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  "<object data=javascript:alert(1)></object>",
  '<embed src="javascript:alert(1)">',
  '<a href="javascript:alert(1)">click</a>',
  '<a href="JaVaScRiPt:alert(1)">click</a>',
  '<a href="  javascript:alert(1)">click</a>',
  '<a href="java\nscript:alert(1)">click</a>',
  '<a href="&#x6A;avascript:alert(1)">click</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">click</a>',
  '<a href="javascript&colon;alert(1)">click</a>',
  '<a href="vbscript:msgbox(1)">click</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click</a>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  "[click](javascript:alert(1))",
  "[click](JAVASCRIPT:alert(1))",
  "[click](&#106;avascript:alert(1))",
  "[click](data:text/html,<script>alert(1)</script>)",
  "![x](javascript:alert(1))",
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<div style="width: expression(alert(1))">x</div>',
  "<style>body{background:url(javascript:alert(1))}</style>",
  '<a href="/ok" onclick="alert(1)" onmouseover="alert(1)">ok</a>',
  '<p ONCLICK="alert(1)">x</p>',
  '<form action="javascript:alert(1)"><button>go</button></form>',
  '<input onfocus=alert(1) autofocus>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror="alert(1)"></video>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<link rel=stylesheet href="https://evil.example/x.css">',
  "<!--<img src=x onerror=alert(1)>-->",
  '<a href="https://ok.example" target="_blank" rel="opener">ok</a>',
  "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\"></noscript>",
  '<img src="x` `<script>alert(1)</script>"` `>',
  '"><script>alert(1)</script>',
];

/** What no rendered payload may contain. */
function assertHarmless(html: string) {
  const lower = html.toLowerCase();
  expect(lower).not.toMatch(/<\s*(script|iframe|object|embed|svg|math|style|form|input|button|meta|base|link|body|details|video|source|noscript)\b/);
  expect(lower).not.toMatch(/\son[a-z]+\s*=/);
  expect(lower).not.toMatch(/\sstyle\s*=/);
  expect(lower).not.toMatch(/\starget\s*=|\srel\s*=/);
  for (const [, url] of lower.matchAll(/\s(?:href|src|action|data|srcdoc)\s*=\s*"([^"]*)"/g)) {
    expect(url).toMatch(/^(https?:\/\/|mailto:|tel:|\/|#|\.\.?\/)/);
  }
}

describe("article Markdown rendering", () => {
  it.each(PAYLOADS)("leaves nothing that runs from %s", (payload) => {
    assertHarmless(renderArticleMarkdown(payload));
    // the same payload inside ordinary Markdown
    assertHarmless(renderArticleMarkdown(`# Title\n\nSome *text* before.\n\n${payload}\n\n- a list item ${payload}\n`));
  });

  it("keeps the Markdown an article needs", () => {
    const html = renderArticleMarkdown(
      "# Reset your password\n\nOpen **Settings** and _then_ [the profile](/profile) or [our site](https://example.com).\n\n```\ncode here\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n![logo](/logo.png)\n\n> quoted\n\n1. one\n2. two\n",
    );
    expect(html).toContain("<h1>Reset your password</h1>");
    expect(html).toContain("<strong>Settings</strong>");
    expect(html).toContain("<em>then</em>");
    expect(html).toContain('<a href="/profile">the profile</a>');
    expect(html).toContain('<a href="https://example.com">our site</a>');
    expect(html).toContain("<pre><code>code here");
    expect(html).toContain("<table>");
    expect(html).toContain("<td>1</td>");
    expect(html).toContain('<img src="/logo.png" alt="logo">');
    expect(html).toContain("<blockquote>");
    expect(html).toContain("<li>two</li>");
  });

  it("keeps harmless links and drops only the dangerous attribute", () => {
    expect(renderArticleMarkdown('<a href="/ok" onclick="alert(1)">ok</a>')).toContain('<a href="/ok">ok</a>');
    expect(renderArticleMarkdown("[mail us](mailto:help@example.com)")).toContain('href="mailto:help@example.com"');
    expect(renderArticleMarkdown("[x](javascript:alert(1))")).not.toContain("javascript");
  });

  it("escapes text that looks like markup inside code", () => {
    expect(renderArticleMarkdown("`<script>alert(1)</script>`")).toContain("<code>&lt;script&gt;alert(1)&lt;/script&gt;</code>");
  });
});
