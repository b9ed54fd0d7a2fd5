/**
 * The one step that sends a password-reset link (docs/auth.md#password-reset). Email is not
 * connected yet: the request itself is recorded (the `password_resets` row, its token hashed) and
 * this step sends nothing. When the mail transport lands, this function sends `link` to `to`; its
 * callers do not change. The link carries a secret: never log it.
 */
export async function sendPasswordResetMail(_mail: { to: string; link: string }): Promise<void> {}
