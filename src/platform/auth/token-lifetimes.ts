/**
 * How long an access token lives and how much clock skew a verifier forgives (D3, D4.1). A leaf of its
 * own: the signer, the verifier and the signing-key ring (whose retired keys must outlive the tokens they
 * signed) all read them, and none of them imports another for it.
 */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const CLOCK_TOLERANCE_SECONDS = 30;
