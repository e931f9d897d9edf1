/** Where the WooCommerce bridge's routes live, from the service's public address. */
export function wooUrls(baseUrl: string) {
  const base = `${baseUrl.replace(/\/+$/, '')}/connectors/woocommerce`;
  return {
    connect: `${base}/connect`,
    /** The key-provisioning callback: the single-use install state is in the path. */
    callback: (state: string) => `${base}/callback/${state}`,
    return: `${base}/return`,
    /** Each link has its own delivery URL, so a delivery names its link (and its secret) before parsing. */
    webhooks: (connectionId: string) => `${base}/webhooks/${connectionId}`,
  };
}
