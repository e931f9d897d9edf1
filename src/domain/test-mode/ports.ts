/** What "delete all test data" removed, counted for the trail and the page. */
export interface DeletedTestData {
  orders: number;
  webhookEndpoints: number;
  webhookDeliveries: number;
}

/** Storage of a brand's test data (its test twin's rows). */
export interface TestDataStore {
  /**
   * Deletes a test twin's orders with every row hanging on them, its webhook endpoints with their
   * deliveries and attempts, and its undispatched outbox events. The twin row stays: brands are
   * never deleted (a trigger forbids it), and its test keys keep working on an empty account.
   */
  deleteAll(twinBrandId: string): Promise<DeletedTestData>;
}
