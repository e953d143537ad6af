// Adjudicates every fixture through the TypeScript client generated from the API document
// (openapi-typescript types, openapi-fetch) and compares each answer with the fixture's
// expectation (the parts `expected` states, as tests/fixtures.rs does). Compiled with
// `tsc --strict` beside the generated `api.d.ts`. Usage: node check.js BASE_URL FIXTURES_DIR.
// Exits non-zero on any difference.
import createClient from "openapi-fetch";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { components, paths } from "./api";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Fixture = {
  record: components["schemas"]["HandRecord"];
  expected: Json;
  expected_status?: number;
};

/** What the fixture states, found in the answer (null matches null or absent). */
function subset(expected: Json, actual: Json | undefined, path: string): string | null {
  if (expected === null && (actual === null || actual === undefined)) return null;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length)
      return `${path}: expected ${expected.length} items, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const err = subset(expected[i], actual[i], `${path}/${i}`);
      if (err) return err;
    }
    return null;
  }
  if (expected !== null && typeof expected === "object" && !Array.isArray(expected)) {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual))
      return `${path}: expected an object, got ${JSON.stringify(actual)}`;
    for (const [k, v] of Object.entries(expected)) {
      const err = subset(v, actual[k], `${path}/${k}`);
      if (err) return err;
    }
    return null;
  }
  return expected === actual ? null : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

async function main(): Promise<number> {
  const [base, fixtures] = process.argv.slice(2);
  const client = createClient<paths>({ baseUrl: base });
  const failures: string[] = [];
  const games = await client.GET("/v1/games");
  const ids = (games.data ?? []).map((g) => g.id).sort();
  const folders = readdirSync(fixtures).filter((d) => statSync(join(fixtures, d)).isDirectory()).sort();
  if (JSON.stringify(ids) !== JSON.stringify(folders))
    failures.push(`list_games: ${ids}, fixture folders: ${folders}`);
  let count = 0;
  for (const game of folders) {
    for (const file of readdirSync(join(fixtures, game)).filter((f) => f.endsWith(".json")).sort()) {
      const path = join(fixtures, game, file);
      const f = JSON.parse(readFileSync(path, "utf8")) as Fixture;
      count++;
      const { data, error, response } = await client.POST("/v1/games/{game}/adjudications", {
        params: { path: { game: game as components["schemas"]["GameId"] } },
        body: f.record,
      });
      const want = f.expected_status ?? 200;
      if (response.status !== want) {
        failures.push(`${path}: status ${response.status}, expected ${want}`);
        continue;
      }
      // The typed answer: an Adjudication (200) or a Problem.
      const answer = data ?? error;
      const err = subset(f.expected, answer as unknown as Json, "");
      if (err) failures.push(`${path}: ${err}`);
    }
  }
  for (const line of failures) console.error(`typescript client: ${line}`);
  console.log(`typescript client: ${count} fixtures adjudicated, ${failures.length} differences`);
  return failures.length > 0 || count === 0 ? 1 : 0;
}

main().then((code) => process.exit(code));
