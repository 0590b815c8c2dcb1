declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    ATTACHMENT_URL_SECRET: string;
    /** signs the website widget's visitor tokens (vitest.config.ts) */
    WIDGET_TOKEN_SECRET: string;
    /** the push relay's signing secret (vitest.config.ts) */
    PUSH_RELAY_SECRET: string;
  }
}

/** the .eml fixtures of test/fixtures/email, read as text by Vite */
declare module "*.eml?raw" {
  const text: string;
  export default text;
}
