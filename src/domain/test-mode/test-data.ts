import type { Author } from '../audit/actor.ts';
import type { AuditStore } from '../audit/ports.ts';
import type { UnitOfWork } from '../shared/stores.ts';
import type { DeletedTestData, TestDataStore } from './ports.ts';

type TestDataStores = { testData: TestDataStore; audit: AuditStore };

/** The account area's switch between live and test data, and the reset of the latter. */
export interface TestData {
  /** The brand whose rows the test view shows: the live brand's test twin (made on first use). */
  twinOf(liveBrandId: string): Promise<string>;
  /** Deletes all the brand's test data in one audited transaction; live data is never touched. */
  deleteAll(liveBrandId: string, by: Author): Promise<DeletedTestData>;
}

export function testDataService(deps: {
  testTwinId: (liveBrandId: string) => Promise<string>;
  transact: UnitOfWork<TestDataStores>;
}): TestData {
  return {
    twinOf: deps.testTwinId,
    async deleteAll(liveBrandId, by) {
      const twin = await deps.testTwinId(liveBrandId);
      return deps.transact(async (stores) => {
        const deleted = await stores.testData.deleteAll(twin);
        await stores.audit.record({
          action: 'test_data.deleted',
          by,
          object: { type: 'brand', id: liveBrandId },
          brandId: liveBrandId,
          details: {
            twin_brand_id: twin,
            orders: deleted.orders,
            webhook_endpoints: deleted.webhookEndpoints,
            webhook_deliveries: deleted.webhookDeliveries,
          },
        });
        return deleted;
      });
    },
  };
}
