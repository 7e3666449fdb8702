// Fixture (written for doctor's tests): the example app hands the library a placeholder container.
import CloudKit
import SyncKit

final class AppDelegate {
    lazy var synchronizer = CloudKitSynchronizer.privateSynchronizer(containerName: "your-iCloud-container",
                                                                     managedObjectContext: context)
}
