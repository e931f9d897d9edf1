/**
 * The noisy neighbour's client: GETs a URL at a steady rate for a while, over up to 50 keep-alive
 * connections, then prints how many responses it got per status as JSON.
 *
 * Paced evenly (a few requests every millisecond) rather than with autocannon's `-R`, which sends
 * each second's quota as fast as it can at the top of the second and then waits: that measures
 * how a 60 ms burst of the machine's full capacity delays others, not a steady flood.
 *
 * Usage: node --import tsx bench/hammer.ts URL AUTHORIZATION RATE SECONDS
 */
import { Agent, request } from 'node:http';

const [url, authorization, rateArg, secondsArg] = process.argv.slice(2);
const rate = Number(rateArg);
const seconds = Number(secondsArg);
if (!url || !authorization || !(rate > 0) || !(seconds > 0)) {
  console.error('usage: hammer.ts URL AUTHORIZATION RATE SECONDS');
  process.exit(2);
}

const agent = new Agent({ keepAlive: true, maxSockets: 50 });
const statuses: Record<string, number> = {};
let inFlight = 0;

function fire(): void {
  inFlight++;
  const req = request(url!, { agent, headers: { authorization } }, (res) => {
    res.resume();
    res.on('end', () => {
      statuses[String(res.statusCode)] = (statuses[String(res.statusCode)] ?? 0) + 1;
      inFlight--;
    });
  });
  req.on('error', () => {
    statuses.error = (statuses.error ?? 0) + 1;
    inFlight--;
  });
  req.end();
}

const started = performance.now();
let sent = 0;
const total = Math.round(rate * seconds);
const timer = setInterval(() => {
  // Catch up to the schedule: as many requests as are due by now, so the rate holds on average.
  const due = Math.min(total, Math.floor(((performance.now() - started) * rate) / 1000));
  while (sent < due) {
    fire();
    sent++;
  }
  if (sent >= total) {
    clearInterval(timer);
    const wait = setInterval(() => {
      if (inFlight > 0 && performance.now() - started < (seconds + 5) * 1000) return;
      clearInterval(wait);
      agent.destroy();
      console.log(JSON.stringify(statuses));
    }, 10);
  }
}, 1);
