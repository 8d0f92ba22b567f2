// Payments: the list with its filters and totals (#/payments?status=…&from=…), or, with
// ?id=N, one payment's detail with its webhook history and, for the owner, the refund (the
// list's filters stay in the URL for "back to the list"). The pieces are in admin/payments/.

import { renderDetail } from '../payments/detail.js';
import { renderList } from '../payments/list.js';

export default {
  title: 'admin.nav.payments',
  render(view, ctx) {
    const id = ctx.params.get('id');
    return id !== null ? renderDetail(view, ctx, id) : renderList(view, ctx);
  },
};
