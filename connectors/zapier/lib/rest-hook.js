'use strict';

const { apiRequest, baseUrl, throwApiError } = require('./api');

/**
 * A REST-hook trigger on the subscription API: turning the Zap on subscribes its target URL to
 * one event type, turning it off deletes that subscription, and each delivery becomes one record
 * shaped exactly like `performList`'s (the samples Zapier shows while the Zap is being built).
 *
 * The delivery's Standard Webhooks signature is not checked here: Zapier gives every Zap its own
 * unguessable target URL, and does not hand the raw request bytes a signature is computed over.
 */
function restHookTrigger({ key, noun, label, description, eventType, toRecord, list, sample }) {
  return {
    key,
    noun,
    display: { label, description },
    operation: {
      type: 'hook',
      performSubscribe: async (z, bundle) => {
        const zap = bundle.meta?.zap?.id;
        const data = await apiRequest(z, bundle, {
          method: 'POST',
          path: '/webhook-subscriptions',
          body: {
            url: bundle.targetUrl,
            event_types: [eventType],
            description: zap ? `Zapier: ${label} (Zap ${zap})` : `Zapier: ${label}`,
          },
        });
        // Kept by Zapier as bundle.subscribeData. The signing secret is left out: nothing here uses it.
        return { id: data.subscription.id, event_types: data.subscription.event_types };
      },
      performUnsubscribe: async (z, bundle) => {
        const id = bundle.subscribeData?.id;
        if (!id) throw new z.errors.Error('This Zap has no subscription to remove.', 'no_subscription', 400);
        const response = await z.request({
          method: 'DELETE',
          url: `${baseUrl(bundle)}/webhook-subscriptions/${encodeURIComponent(id)}`,
          skipThrowForStatus: true,
        });
        // 404: the subscription no longer exists (deleted from the account area): already done.
        if (response.status === 404) return { id, deleted: true };
        if (response.status >= 400) throwApiError(z, response);
        return { id, deleted: true };
      },
      perform: (_z, bundle) => {
        const event = bundle.cleanedRequest || {};
        if (event.type !== eventType || !event.data) return [];
        return [toRecord(event.data)];
      },
      performList: list,
      sample,
    },
  };
}

module.exports = { restHookTrigger };
