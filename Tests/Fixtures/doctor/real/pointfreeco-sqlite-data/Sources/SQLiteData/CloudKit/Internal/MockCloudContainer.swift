#if canImport(CloudKit)

  package import CloudKit



  package final class MockCloudContainer: CloudContainer {

    package let containerIdentifier: String?





      containerIdentifier: String?,




      self.containerIdentifier = containerIdentifier



      guard let containerIdentifier else { return }
      @Dependency(\.mockCloudContainers) var mockCloudContainers
      mockCloudContainers.withValue { storage in
        storage[containerIdentifier] = self







    package var rawValue: CKContainer {
























        containerIdentifier: containerIdentifier!,



















    package static func createContainer(identifier containerIdentifier: String)
      -> MockCloudContainer

      @Dependency(\.mockCloudContainers) var mockCloudContainers
      return mockCloudContainers.withValue { storage in
        let container: MockCloudContainer
        if let existingContainer = storage[containerIdentifier] {
          return existingContainer

          container = MockCloudContainer(

            containerIdentifier: containerIdentifier,



          container.privateCloudDatabase.set(container: container)
          container.sharedCloudDatabase.set(container: container)

        storage[containerIdentifier] = container
        return container



    package static func == (lhs: MockCloudContainer, rhs: MockCloudContainer) -> Bool {









  private enum MockCloudContainersKey: DependencyKey {
    static var liveValue: LockIsolated<[String: MockCloudContainer]> {
      LockIsolated<[String: MockCloudContainer]>([:])

    static var testValue: LockIsolated<[String: MockCloudContainer]> {
      LockIsolated<[String: MockCloudContainer]>([:])





    fileprivate var mockCloudContainers: LockIsolated<[String: MockCloudContainer]> {

        self[MockCloudContainersKey.self]


        self[MockCloudContainersKey.self] = newValue




