/** This package's version (package.json's), sent in the User-Agent. */
export const SDK_VERSION = '1.0.0';
