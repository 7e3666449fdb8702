#if canImport(CloudKit)
  public import CloudKit


  package protocol CloudContainer<Database>: AnyObject, Equatable, Hashable, Sendable {



    var containerIdentifier: String? { get }
    var rawValue: CKContainer { get }


    static func createContainer(identifier containerIdentifier: String) -> Self








    package var containerIdentifier: String





      self.containerIdentifier = rawValue.containerIdentifier






      containerIdentifier: String,




      self.containerIdentifier = containerIdentifier








  extension CloudContainer {








  extension CKContainer: CloudContainer {








    package static func createContainer(identifier containerIdentifier: String) -> Self {
      Self(identifier: containerIdentifier)


    package var rawValue: CKContainer {



















