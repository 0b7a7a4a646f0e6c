/**
 * Stands in for `@smithy/core/event-streams` in Lambda bundles (see lib/bundling.ts). Event
 * streams carry S3 Select, Kinesis subscriptions, Bedrock and Transcribe streaming: no call the
 * service makes. The real module costs about 15 KB of every bundle (every client's protocol
 * imports it), so bundles get these stand-ins, which let clients be built and fail loudly if an
 * event-stream operation is ever called.
 */

const unavailable = (): never => {
  throw new Error('Event-stream operations are not bundled in this function (see lib/bundling.ts)');
};

const marshaller = { serialize: unavailable, deserialize: unavailable };

export const eventStreamSerdeProvider = () => marshaller;

export const resolveEventStreamSerdeConfig = <T extends object>(input: T) =>
  Object.assign(input, { eventStreamMarshaller: marshaller });

export class EventStreamSerde {
  constructor() {
    unavailable();
  }
}
