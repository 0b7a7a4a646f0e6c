/** The value of an environment variable CDK sets on the function, or an error naming it. */
export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`environment variable ${name} is not set`);
  return value;
}
