// The admin's money parsing (nginx/html/admin/money.js): what the owner types in currency
// units becomes exact minor units, by string arithmetic (no browser needed).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { currencyDigits, formatMinor, parseMoney } from '../../nginx/html/admin/money.js';

test('amounts in currency units become exact minor units', () => {
  const cases = [
    ['199.90', 19990], ['199.9', 19990], ['199', 19900], ['0', 0], ['0.01', 1], ['.5', 50], ['5.', 500],
    ['1 299,50', 129950], ['1\u00a0299.5', 129950], ["1'000", 100000], ['  42 ', 4200], ['007.10', 710],
    // The classic float traps: 0.29 * 100 = 28.999999999999996, 1.15 * 100 = 114.99999999999999.
    ['0.29', 29], ['1.15', 115], ['4.35', 435], ['1005.07', 100507], ['9999999999999.99', 999999999999999],
  ];
  for (const [text, minor] of cases) assert.equal(parseMoney(text, 2), minor, text);
});

test('anything else is refused (null), never guessed', () => {
  for (const text of ['', ' ', '.', ',', '-1', '+1', '1e3', '1.234', '1.2.3', '1,2.3', 'abc', '12a', '0x10', 'Infinity',
    '99999999999999.99', null, undefined]) {
    assert.equal(parseMoney(text, 2), null, String(text));
  }
});

test('a currency without minor units takes whole amounts only', () => {
  assert.equal(currencyDigits('JPY'), 0);
  assert.equal(currencyDigits('RUB'), 2);
  assert.equal(currencyDigits('nope'), 2);
  assert.equal(parseMoney('1500', 0), 1500);
  assert.equal(parseMoney('1500.5', 0), null);
  assert.equal(parseMoney('1500.', 0), 1500);
});

test('minor units shown back as currency units, and the round trip is exact', () => {
  assert.equal(formatMinor(19990), '199.90');
  assert.equal(formatMinor(5), '0.05');
  assert.equal(formatMinor(0), '0.00');
  assert.equal(formatMinor(-250), '-2.50');
  assert.equal(formatMinor(1500, 0), '1500');
  assert.equal(formatMinor(1.5), '');
  for (let minor = 0; minor < 3000; minor += 7) assert.equal(parseMoney(formatMinor(minor), 2), minor);
});
