// Fixture (written for doctor's tests): the development pod makes the container of its parameter.
import CloudKit
import CoreData

extension CloudKitSynchronizer {
    public static func privateSynchronizer(containerName: String, managedObjectContext: NSManagedObjectContext) -> CloudKitSynchronizer {
        let container = CKContainer(identifier: containerName)
        return CloudKitSynchronizer(database: container.privateCloudDatabase)
    }
}
