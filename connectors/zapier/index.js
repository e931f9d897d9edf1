'use strict';

const zapier = require('zapier-platform-core');
const authentication = require('./authentication');
const { addBearerToken, explainErrors } = require('./lib/api');
const { newOrder, orderStatusChanged, orderDelivered } = require('./triggers/orders');
const { invoiceIssued } = require('./triggers/invoices');
const createOrder = require('./creates/create-order');
const getRates = require('./creates/get-rates');
const findOrder = require('./searches/find-order');

const byKey = (...definitions) => Object.fromEntries(definitions.map((d) => [d.key, d]));

/** The Livraison DLV app: `zapier push` uploads it as is (see README.md). */
module.exports = {
  version: require('./package.json').version,
  platformVersion: zapier.version,
  authentication,
  beforeRequest: [addBearerToken],
  afterResponse: [explainErrors],
  triggers: byKey(newOrder, orderStatusChanged, orderDelivered, invoiceIssued),
  creates: byKey(createOrder, getRates),
  searches: byKey(findOrder),
};
