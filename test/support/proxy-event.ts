import type { APIGatewayProxyEvent } from 'aws-lambda';

export interface ProxyEventInput {
  method: string;
  path: string;
  /** The route's path template; the path itself when omitted. */
  resource?: string;
  headers?: Record<string, string>;
  body?: string | null;
  pathParameters?: Record<string, string> | null;
}

/** An API Gateway proxy event as the gateway hands it to a route's function, each with its own request id. */
export function proxyEvent(input: ProxyEventInput): APIGatewayProxyEvent {
  return {
    resource: input.resource ?? input.path,
    path: input.path,
    httpMethod: input.method,
    headers: input.headers ?? {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: input.pathParameters ?? null,
    stageVariables: null,
    body: input.body ?? null,
    isBase64Encoded: false,
    requestContext: { requestId: crypto.randomUUID() } as APIGatewayProxyEvent['requestContext'],
  };
}

export const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });
