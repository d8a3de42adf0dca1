/**
 * Test-scope helpers shared by every module's tests: contract test suites run against every
 * implementation of an interface (chunk store, snapshot source and target, index formats), a
 * fault-injecting file layer, seeded data and golden fixtures. Depends on core and datastore only;
 * the other modules use it with test scope.
 */
package org.jpbs.testkit;
