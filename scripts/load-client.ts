/**
 * The benchmark's client, run as its own process so that its work is not counted against the
 * server's: one kept-alive connection per key, each sending requests back to back (a closed
 * loop, as a user's client would). Prints one JSON line: p50, p99, requests per second.
 *
 *   node scripts/load-client.ts <baseUrl> <path> <key,key,…> <warm-up per connection> <requests per connection>
 */
import { Agent, request } from 'node:http';

const [baseUrl = '', path = '', keyList = '', warmupArg = '100', requestsArg = '300'] = process.argv.slice(2);
const keys = keyList.split(',');
const url = new URL(path, baseUrl);

function hit(agent: Agent, key: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const call = request(url, { agent, headers: { Authorization: `Bearer ${key}` } }, (response) => {
      response.resume();
      response.on('end', () => {
        if (response.statusCode !== 200) reject(new Error(`${path} answered ${response.statusCode}`));
        else resolve(performance.now() - started);
      });
    });
    call.on('error', reject);
    call.end();
  });
}

async function connection(key: string, requests: number, latencies: number[]) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < requests; i++) latencies.push(await hit(agent, key));
  agent.destroy();
}

await Promise.all(keys.map((key) => connection(key, Number(warmupArg), [])));
const latencies: number[] = [];
const started = performance.now();
await Promise.all(keys.map((key) => connection(key, Number(requestsArg), latencies)));
const seconds = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
console.log(JSON.stringify({ p50: at(0.5), p99: at(0.99), perSecond: latencies.length / seconds }));
