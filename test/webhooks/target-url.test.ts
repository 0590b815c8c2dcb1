import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { isForbiddenTarget, targetPolicy } from "../../src/domain/kernel/target-url";

describe("isForbiddenTarget", () => {
  it.each([
    "http://localhost/hook",
    "http://LOCALHOST.:8080/",
    "https://api.localhost/",
    "http://127.0.0.1/",
    "http://127.8.9.10/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://0.0.0.0/",
    "http://10.1.2.3/",
    "http://172.16.0.1/",
    "http://172.31.255.255/",
    "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data",
    "http://100.64.0.1/",
    "http://224.0.0.1/",
    "http://255.255.255.255/",
    "http://[::1]/",
    "http://[::]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:10.0.0.1]/",
    "http://[fe80::1]/",
    "http://[fd12:3456::1]/",
    "http://[ff02::1]/",
    "http://[64:ff9b::a9fe:a9fe]/",
    "ftp://example.com/",
    "not a url",
    // IPv6 spellings of loopback and private IPv4
    "http://[::ffff:0:7f00:1]/", // IPv4-translated
    "http://[::ffff:0:a00:1]/",
    "http://[64:ff9b::7f00:1]/", // NAT64, well-known prefix
    "http://[64:ff9b:1::7f00:1]/", // NAT64, local-use prefix
    "http://[64:ff9b:1:abcd::1]/",
    "http://[2001:0::1]/", // Teredo
    "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", // Teredo, client 127.0.0.1
    "http://[2002:7f00:1::1]/", // 6to4 of 127.0.0.1
    "http://[2002:c0a8:101::1]/", // 6to4 of 192.168.1.1
    "http://[::7f00:1]/", // IPv4-compatible
    "http://[::a00:1]/",
    // names that resolve to loopback or private addresses, or to what their name embeds
    "http://localtest.me/",
    "http://api.localtest.me/",
    "http://127.0.0.1.nip.io/",
    "http://app.10.0.0.1.nip.io:8080/",
    "http://nip.io/",
    "http://169-254-169-254.sslip.io/",
    "http://127.0.0.1.xip.io/",
    "http://lvh.me/",
    "http://anything.lvh.me/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://metadata.google.internal./",
    "http://service.internal/",
    "http://printer.local/",
    "http://host.localdomain/",
    "http://router.home.arpa/",
    "http://localhost../",
    "http://localhost.localdomain/",
    "http://metadata/", // one label: resolved through the local search domains
  ])("refuses %s", (url) => {
    expect(isForbiddenTarget(url)).toBe(true);
  });

  it.each([
    "https://example.com/hook",
    "http://8.8.8.8/",
    "http://172.32.0.1/",
    "http://100.128.0.1/",
    "https://[2606:4700::1111]/",
    "http://[::ffff:8.8.8.8]/",
    "https://localhost.example.com/",
    "https://internal.example.com/",
    "https://nip.io.example.com/",
    "https://my-local.example.org/",
    "https://[2001:4860:4860::8888]/",
    "https://[2002:808:808::1]/", // 6to4 of 8.8.8.8
    "https://[64:ff9b::808:808]/", // NAT64 of 8.8.8.8
  ])("allows %s", (url) => {
    expect(isForbiddenTarget(url)).toBe(false);
  });
});

describe("the target policy", () => {
  it("is strict unless the variable says allow-private", () => {
    expect(targetPolicy({})).toBe("public");
    expect(targetPolicy({ WEBHOOK_TARGET_POLICY: "public" })).toBe("public");
    expect(targetPolicy({ WEBHOOK_TARGET_POLICY: "yes please" })).toBe("public");
    expect(targetPolicy({ WEBHOOK_TARGET_POLICY: "allow-private" })).toBe("allow-private");
  });

  it("lets local runs call loopback and private receivers, but still only over http(s) and without credentials", () => {
    for (const url of ["http://localhost:4000/hook", "http://127.0.0.1:9000/", "http://[::1]:8080/", "http://192.168.1.20/in"]) {
      expect(isForbiddenTarget(url, "allow-private")).toBe(false);
      expect(isForbiddenTarget(url, "public")).toBe(true);
    }
    expect(isForbiddenTarget("ftp://localhost/", "allow-private")).toBe(true);
    expect(isForbiddenTarget("https://user:pass@example.com/", "allow-private")).toBe(true);
  });

  it("is strict in the test runtime, as wrangler.toml sets it for a deployed Worker", () => {
    expect(targetPolicy(env)).toBe("public");
  });
});
