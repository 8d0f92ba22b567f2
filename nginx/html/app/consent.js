// "Continue as @name?": the mini-app opened in a plain browser with init data in its
// address (shared/telegram.js pendingLaunch). Such a link may be someone else's, made to
// sign this browser into their account, so nothing is asked of /api with it until the
// user says it is theirs. Yes keeps it for this tab and reloads; No forgets it and reloads
// without it (the demo, as any plain opening).

// "@name", else the first and last name, else the id Telegram gave.
export function launchName(user) {
  if (user.username) return '@' + String(user.username);
  const full = [user.first_name, user.last_name].filter(Boolean).join(' ').trim();
  return full || (user.id ? String(user.id) : '?');
}

export function askToContinue(ctx, pending) {
  const name = launchName(pending.user);
  ctx.shell.showState({
    kind: 'consent',
    title: ctx.t('launch.consent.title', { name }),
    text: ctx.t('launch.consent.text', { name }),
    action: { label: ctx.t('launch.consent.yes', { name }), onClick: () => pending.accept() },
    secondary: { label: ctx.t('launch.consent.no'), onClick: () => pending.decline() },
  });
}
