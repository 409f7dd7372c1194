/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The git commit the app was built from (vite.config.ts defines it at build time). */
  readonly VITE_BUILD_HASH?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
