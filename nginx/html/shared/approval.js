// The question a browser asks once a Telegram account has confirmed its code in the bot:
// "@mallory “Mallory” confirmed … Is this your Telegram account?", with Yes and No. The code
// is in a link and a QR code on the screen, so whoever read it there may have confirmed
// first: only this browser's answer signs in (cabinet/screens/signin.js) or merges the
// accounts (app/linked-web.js). Both ask it here, the same way.
import { h } from './dom.js';

// The confirming account as the question names it: its @username or numeric id first, the
// one thing nobody else can take, then its first name in quotes. A first name is anyone's
// to choose, "@" and invisible formatting characters included: "Alice @alice" with no
// username of its own would otherwise read as Alice's account, so those characters go.
export function telegramName(t, tg) {
  const handle = tg.username ? '@' + tg.username : t('linked.telegram.id', { id: tg.id });
  const first = String(tg.first_name || '').replace(/[\p{Cf}@]/gu, '').replace(/\s+/g, ' ').trim();
  return first ? `${handle} “${first}”` : handle;
}

// Puts the question into `box`. `answer(approve)` sends the answer and shows what follows;
// when it throws (after saying why), the buttons come back and the pressed one takes the
// focus, to try again. `id` names the question's and the note's elements.
export function askApproval(box, { id, question, note, yes, no, answer }) {
  const press = async (approve, btn) => {
    for (const b of box.querySelectorAll('button')) b.disabled = true;
    try {
      await answer(approve);
    } catch {
      for (const b of box.querySelectorAll('button')) b.disabled = false;
      btn.focus();
    }
  };
  // Focus on the question, not on Yes: a stray Enter must not approve, and the note is
  // read with it.
  const q = h('p', { id: id + '-q', tabindex: '-1' }, question);
  box.replaceChildren(h('div', { class: 'linked-confirm', role: 'group', 'aria-labelledby': id + '-q', 'aria-describedby': id + '-note' },
    q,
    h('p', { id: id + '-note', class: 'muted' }, note),
    h('div', { class: 'btn-row' },
      h('button', { class: 'btn btn-primary', type: 'button', onclick: (e) => press(true, e.currentTarget) }, yes),
      h('button', { class: 'btn', type: 'button', onclick: (e) => press(false, e.currentTarget) }, no))));
  q.focus();
}
