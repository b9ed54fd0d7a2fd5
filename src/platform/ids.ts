/**
 * Opaque, type-prefixed, time-ordered ids: `<prefix>_<26 chars>` where the 26 chars are a ULID
 * (48-bit millisecond time + 80 random bits, Crockford base32). Sorting by id sorts by creation.
 */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

export const ID_PREFIXES = {
  tenant: "ten",
  user: "usr",
  apiKey: "key",
  invite: "inv",
  refreshToken: "rtk",
  category: "cat",
  location: "loc",
  event: "evt",
  asset: "ast",
  person: "per",
  customField: "cfd",
  layout: "lay",
  session: "ses",
  sessionSchedule: "ssc",
  scan: "scn",
  maintenanceSchedule: "mts",
  maintenanceLog: "mtl",
  notification: "ntf",
  notificationSend: "nts",
  feedback: "fbk",
  object: "obj",
  webhookEndpoint: "whe",
  webhookDelivery: "whd",
  webhookAttempt: "wha",
  timeline: "tle",
  assignment: "asg",
  statusEvent: "ase",
  audit: "aud",
  quickAddEvent: "qae",
  importJob: "imp",
  request: "req",
  booking: "bkg",
  kit: "kit",
  calendarFeed: "cal",
  /** A self-service request; `req` is taken by HTTP request ids. */
  assetRequest: "rqt",
  stockItem: "stk",
  stockMovement: "smv",
  passwordReset: "pwr",
  offboardingCase: "obc",
  agreement: "agr",
  agreementVersion: "agv",
  handover: "hov",
  receipt: "rcp",
  scimToken: "sct",
  scimUser: "scu",
  scimGroup: "scg",
  scimGroupMapping: "sgm",
  licenceProduct: "lic",
  licenceLot: "lot",
  licenceKey: "lky",
  licenceSeat: "sea",
  licenceFeed: "lcf",
  licenceReview: "lrv",
  code: "cod",
  tagBatch: "tgb",
  labelTemplate: "ltp",
  tenantMove: "mov",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

export function ulid(now = Date.now()): string {
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes16();
  let rand = "";
  for (let i = 0; i < 16; i++) rand += ALPHABET[bytes[i]! % 32];
  return time + rand;
}

/**
 * Sixteen fresh random bytes, cut from a pool the runtime's CSPRNG fills 256 ids at a time: one
 * `getRandomValues` call per id was a visible share of a 500-scan batch (each accepted scan takes
 * an id). Filled lazily, inside a request: Workers refuse random values at global scope.
 */
const POOL_IDS = 256;
let pool = new Uint8Array(0);
let poolAt = 0;
function randomBytes16(): Uint8Array {
  if (poolAt + 16 > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(16 * POOL_IDS));
    poolAt = 0;
  }
  poolAt += 16;
  return pool.subarray(poolAt - 16, poolAt);
}

export function newId(kind: IdKind, now?: number): string {
  return `${ID_PREFIXES[kind]}_${ulid(now)}`;
}

const idPatterns = new Map<IdKind, RegExp>();

/**
 * True when `value` has the shape of an id of `kind`; used to answer 404 early for garbage ids. The
 * pattern is compiled once per kind: a 500-scan batch asks once per scanned code.
 */
export function isId(kind: IdKind, value: string): boolean {
  let pattern = idPatterns.get(kind);
  if (!pattern) {
    pattern = new RegExp(`^${ID_PREFIXES[kind]}_[0-9a-hjkmnp-tv-z]{26}$`);
    idPatterns.set(kind, pattern);
  }
  return pattern.test(value);
}

const last = new Map<IdKind, string>();

/** Adds one to a Crockford base32 string (same length; the ulid's random part never overflows in practice). */
function increment(s: string): string {
  const chars = s.split("");
  for (let i = chars.length - 1; i >= 0; i--) {
    const v = ALPHABET.indexOf(chars[i]!);
    if (v < 31) {
      chars[i] = ALPHABET[v + 1]!;
      return chars.join("");
    }
    chars[i] = "0";
  }
  return chars.join("");
}

/**
 * A `newId(kind)` that is strictly increasing within this isolate (monotonic ULID), so history
 * rows written in the same millisecond (several rows of one batch, or two quick requests) keep
 * their write order when lists sort by id.
 */
export function orderedId(kind: IdKind): string {
  let id = newId(kind);
  const prev = last.get(kind);
  if (prev && id <= prev) id = `${ID_PREFIXES[kind]}_${increment(prev.slice(ID_PREFIXES[kind].length + 1))}`;
  last.set(kind, id);
  return id;
}
