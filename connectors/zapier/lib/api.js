'use strict';

/** Where the app talks to unless the connection says otherwise (tests point it at loopback). */
const PRODUCTION_BASE_URL = 'https://api.livraison-dlv.fr/public/v1';

/** The connection's API base URL, without a trailing slash. */
function baseUrl(bundle) {
  const configured = String(bundle.authData?.base_url || '').trim();
  return (configured || PRODUCTION_BASE_URL).replace(/\/+$/, '');
}

/** `beforeRequest`: every request carries the connection's key as a bearer token. */
function addBearerToken(request, _z, bundle) {
  const key = bundle.authData?.api_key;
  if (key) {
    request.headers = { ...request.headers, Authorization: `Bearer ${key}` };
  }
  return request;
}

/**
 * Our error body is `{ok: false, error: "code", message, details?}`; the older contract draft had
 * `error: {code, message}`, so both are read. Field details are appended: they name what to fix.
 */
function describeError(response) {
  let body = {};
  try {
    body = response.data || JSON.parse(response.content);
  } catch (_) {
    body = {};
  }
  const nested = body && typeof body.error === 'object' && body.error !== null ? body.error : {};
  const code = (typeof body.error === 'string' ? body.error : nested.code) || `http_${response.status}`;
  let message = body.message || nested.message || `The API answered HTTP ${response.status}.`;
  const details = Array.isArray(body.details) ? body.details : nested.details;
  if (Array.isArray(details) && details.length > 0) {
    message += ` (${details.map((d) => `${d.field}: ${d.message}`).join('; ')})`;
  }
  return { code, message };
}

/**
 * Throws the Zapier error that matches an error response. A 401 means the key was revoked or
 * mistyped: an API key cannot be refreshed, so it is ExpiredAuthError (Zapier marks the
 * connection stale and asks the user to reconnect) rather than RefreshAuthError (which would
 * call a refresh that does not exist and retry for nothing). Everything else is z.errors.Error
 * with our code and status, so the Zap history shows the API's own explanation.
 */
function throwApiError(z, response) {
  const { code, message } = describeError(response);
  if (response.status === 401) {
    throw new z.errors.ExpiredAuthError(`${message} Reconnect with a valid Livraison DLV API key.`);
  }
  throw new z.errors.Error(message, code, response.status);
}

/** `afterResponse`: error bodies become clear Zapier errors (429s are handled by the core before). */
function explainErrors(response, z) {
  if (response.status >= 400 && !response.skipThrowForStatus) {
    throwApiError(z, response);
  }
  return response;
}

/** A request to the API whose parsed JSON body is returned. */
async function apiRequest(z, bundle, options) {
  const response = await z.request({
    ...options,
    url: `${baseUrl(bundle)}${options.path}`,
    headers: { Accept: 'application/json', ...options.headers },
  });
  return response.data;
}

/** `bundle.inputData` without the fields left empty: the API refuses unknown or blank values. */
function filledFields(inputData, keys) {
  const out = {};
  for (const key of keys) {
    const value = inputData[key];
    if (value !== undefined && value !== null && value !== '') out[key] = value;
  }
  return out;
}

module.exports = {
  PRODUCTION_BASE_URL,
  baseUrl,
  addBearerToken,
  explainErrors,
  throwApiError,
  apiRequest,
  filledFields,
};
