// What each of the card's actions asks for and sends (customers/actions.js draws and sends
// them): its fields, the body built from them (a FieldError for a value that cannot be
// sent), who may do it, whether it asks "are you sure" first, and the toast's words.
// Money is typed in the customer's currency units (admin/money.js), never through a float.

import { h } from '../../shared/dom.js';
import { FieldError, field, input, intOf, select, textarea } from '../form.js';
import { currencyDigits, formatMinor, parseMoney } from '../money.js';
import { displayName, moneyOf } from './common.js';

const OWNER = ['owner'];
const STAFF = ['owner', 'support'];

export function actionSpecs(ctx, card, { plans, groups }) {
  const c = card.customer;
  const t = ctx.t;
  const name = displayName(c);
  const digits = currencyDigits(c.currency);
  const daysField = () => field(t('customers.days'), input({ inputmode: 'numeric', autocomplete: 'off' }), { names: ['days'], hint: t('customers.daysHint') });
  const specs = [];

  // Balance: add or take, through the ledger.
  {
    let dirF; let amountF;
    specs.push({
      id: 'balance', path: 'balance', roles: OWNER, title: t('customers.act.balance'), submit: t('customers.act.balanceGo'),
      hint: t('customers.act.balanceHint', { balance: moneyOf(ctx, c.balance_minor, c.currency) }),
      fields: () => {
        dirF = field(t('customers.direction'), select([['add', t('customers.direction.add')], ['take', t('customers.direction.take')]], 'add'));
        amountF = field(t('customers.amount', { currency: c.currency }), input({ inputmode: 'decimal', autocomplete: 'off' }), { names: ['delta_minor', 'amount', 'balance'] });
        return [dirF, amountF];
      },
      body: () => {
        const minor = parseMoney(amountF.input.value, digits);
        if (minor === null || minor === 0) throw new FieldError(amountF, t('admin.form.money', { digits }));
        if (dirF.input.value === 'take' && minor > c.balance_minor) {
          throw new FieldError(amountF, t('customers.takeTooMuch', { balance: formatMinor(c.balance_minor, digits) }));
        }
        return { delta_minor: dirF.input.value === 'take' ? -minor : minor };
      },
      done: (a, b) => t('customers.done.balance', { delta: moneyOf(ctx, b.delta_minor, c.currency, true),
        balance: moneyOf(ctx, a.customer ? a.customer.balance_minor : c.balance_minor + b.delta_minor, c.currency) }),
    });
  }

  // Extend by days.
  {
    let daysF;
    specs.push({
      id: 'extend', path: 'extend', roles: OWNER, title: t('customers.act.extend'), submit: t('customers.act.extendGo'),
      fields: () => [daysF = daysField()],
      body: () => ({ days: intOf(ctx, daysF, { min: 1, max: 3650 }) }),
      done: (a, b) => t('customers.done.extend', { n: b.days }),
    });
  }

  // Grant a plan for days (the purchase's grant path, panel first).
  {
    let planF; let daysF;
    specs.push({
      id: 'grant', path: 'grant', roles: OWNER, title: t('customers.act.grant'), submit: t('customers.act.grantGo'),
      fields: () => {
        planF = field(t('customers.plan'), select([['', t('customers.plan.choose')],
          ...plans.map((p) => [p.code, p.is_active === false ? t('customers.plan.off', { name: p.name }) : p.name])], ''), { names: ['plan_code'] });
        daysF = daysField();
        return [planF, daysF];
      },
      body: () => {
        if (!planF.input.value) throw new FieldError(planF, t('customers.plan.needed'));
        return { plan_code: planF.input.value, days: intOf(ctx, daysF, { min: 1, max: 3650 }) };
      },
      done: (a, b) => t('customers.done.grant', { plan: (plans.find((p) => p.code === b.plan_code) || { name: b.plan_code }).name, n: b.days }),
    });
  }

  // Personal discount.
  {
    let pctF;
    specs.push({
      id: 'discount', path: 'discount', roles: OWNER, title: t('customers.act.discount'), submit: t('action.save'),
      fields: () => [pctF = field(t('customers.discountPct'), input({ inputmode: 'numeric', value: String(c.personal_discount_pct || 0), autocomplete: 'off' }),
        { names: ['personal_discount_pct'] })],
      body: () => ({ personal_discount_pct: intOf(ctx, pctF, { min: 0, max: 100 }) }),
      done: (a, b) => t('customers.done.discount', { n: b.personal_discount_pct }),
    });
  }

  // Promo group.
  {
    let groupF;
    const names = groups.map((g) => g.name);
    if (c.promo_group && !names.includes(c.promo_group)) names.push(c.promo_group);
    specs.push({
      id: 'promo-group', path: 'promo-group', roles: OWNER, title: t('customers.act.group'), submit: t('action.save'),
      fields: () => [groupF = field(t('customers.group'), select([['', t('customers.noGroup')], ...names.map((n) => [n, n])], c.promo_group || ''),
        { names: ['promo_group'] })],
      body: () => ({ promo_group: groupF.input.value || null }),
      done: (a, b) => (b.promo_group ? t('customers.done.group', { name: b.promo_group }) : t('customers.done.noGroup')),
    });
  }

  // The support work.
  specs.push({
    id: 'reset-devices', path: 'reset-devices', roles: STAFF, title: t('customers.act.resetDevices'), submit: t('customers.act.resetDevicesGo'),
    hint: t('customers.act.resetDevicesHint'), danger: true, confirm: t('customers.ask.resetDevices', { name }),
    fields: () => [], body: () => ({}), done: () => t('customers.done.resetDevices'),
  });
  specs.push({
    id: 'reset-link', path: 'reset-link', roles: STAFF, title: t('customers.act.resetLink'), submit: t('customers.act.resetLinkGo'),
    hint: t('customers.act.resetLinkHint'), danger: true, confirm: t('customers.ask.resetLink', { name }),
    fields: () => [], body: () => ({}), done: () => t('customers.done.resetLink'),
  });
  specs.push(c.is_blocked
    ? { id: 'unblock', path: 'unblock', roles: STAFF, title: t('customers.act.unblock'), submit: t('customers.act.unblockGo'),
      hint: t('customers.act.unblockHint'), confirm: t('customers.ask.unblock', { name }),
      fields: () => [], body: () => ({}), done: () => t('customers.done.unblock', { name }) }
    : { id: 'block', path: 'block', roles: STAFF, title: t('customers.act.block'), submit: t('customers.act.blockGo'),
      hint: t('customers.act.blockHint'), danger: true, confirm: t('customers.ask.block', { name }),
      fields: () => [], body: () => ({}), done: () => t('customers.done.block', { name }) });
  specs.push({
    id: 'sync', path: 'sync', roles: STAFF, title: t('customers.act.sync'), submit: t('customers.act.syncGo'),
    hint: t('customers.act.syncHint'), fields: () => [], body: () => ({}), done: () => t('customers.done.sync'),
  });
  {
    let textF;
    const noTelegram = c.telegram_id === null || c.telegram_id === undefined;
    specs.push({
      id: 'message', path: 'message', roles: STAFF, title: t('customers.act.message'), submit: t('customers.act.messageGo'),
      hint: t('customers.act.messageHint'), disabled: noTelegram,
      note: noTelegram ? h('p', { class: 'muted', role: 'note' }, t('customers.noTelegram')) : null,
      fields: () => [textF = field(t('customers.messageText'), textarea({ rows: 4, maxlength: 4096 }), { names: ['text'], wide: true })],
      body: () => {
        const text = textF.input.value;
        if (!text.trim()) throw new FieldError(textF, t('customers.messageNeeded'));
        return { text };
      },
      done: () => t('customers.done.message', { name }),
    });
  }
  return specs;
}
