/** asl-validator 4 ships no typings: the part the infra tests call. */
declare module 'asl-validator' {
  interface ValidationResult {
    readonly isValid: boolean;
    readonly errors: readonly { readonly 'Error code': string; readonly Message: string }[];
    errorsText(separator?: string): string;
  }
  export default function aslValidator(
    definition: unknown,
    options?: { readonly checkPaths?: boolean; readonly checkArn?: boolean },
  ): ValidationResult;
}
