// Customers: the list with its search and filters (#/customers?q=…&status=…), or, with
// ?id=N, one customer's card with the actions the role may do (the list's filters stay in
// the URL for "back to the list"). The pieces are in admin/customers/.

import { renderCard } from '../customers/card.js';
import { renderList } from '../customers/list.js';

export default {
  title: 'customers.title',
  render(view, ctx) {
    const id = ctx.params.get('id');
    return id !== null ? renderCard(view, ctx, id) : renderList(view, ctx);
  },
};
