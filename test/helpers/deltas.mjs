// The text deltas delta-child.mjs streams, for the test that checks what was recorded.

/** deltaText is the text of delta i: numbered, so a lost or reordered delta shows. */
export const deltaText = (i) => `d${i} → ✓ `;

/** deltasText is the text of deltas 0 … count-1 joined. */
export const deltasText = (count) => Array.from({ length: count }, (_, i) => deltaText(i)).join('');
