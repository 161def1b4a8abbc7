/** Where the compiled spec validators live: src/spec/compiled-spec-validators.ts. */
export declare const COMPILED_VALIDATORS: string;
/** The text scripts/compile-spec-validators.mjs writes there, formatted by prettier. */
export declare function compiledValidatorsText(): Promise<string>;
