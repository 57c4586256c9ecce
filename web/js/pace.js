// Humane pacing at a table (docs/protocol.md): the paces a table is created with, the grace after
// a lost connection, and who is ready between hands. Pure: unit-tested with `node --test`.

/** @typedef {import('./wire').TableSummary['pace']} Pace */
/** @typedef {import('./wire').SeatInfo} SeatInfo */

/** The paces a table may be created with, slowest first. */
export const PACES = /** @type {const} */ (['relaxed', 'normal', 'fast']);

/** The grace after a lost connection, in seconds: the server's default and the bounds it takes. */
export const GRACE = { default: 15, min: 0, max: 120 };

/**
 * The grace period typed in the form, as the server takes it: whole seconds within the bounds;
 * `null` when the text is not a number of seconds.
 * @param {string} text
 * @returns {number | null}
 */
export function graceSeconds(text) {
  if (!/^\s*\d+(\.\d*)?\s*$/.test(text)) return null;
  return Math.min(GRACE.max, Math.max(GRACE.min, Math.round(Number(text))));
}

/**
 * Who is ready for the next hand, seat by seat: every seated person, and any other seat the
 * server counts as ready. `waiting`: a connected person has not said so yet (the pause goes on
 * until everyone connected is ready, or until it runs out).
 * @param {SeatInfo[]} seats @param {number[]} ready the `ready` of the `next_hand` timer
 * @returns {{people: Array<{seat: number, ready: boolean, present: boolean}>, waiting: boolean}}
 */
export function readiness(seats, ready) {
  const people = seats
    .filter((s) => s.kind === 'person' || ready.includes(s.seat))
    .map((s) => ({ seat: s.seat, ready: ready.includes(s.seat), present: s.kind === 'person' && s.present }));
  return { people, waiting: people.some((x) => x.present && !x.ready) };
}
