// Fixture (written for doctor's tests): the app's own code starts the sync the package provides.
import PVLibrary

final class AppDelegate {
    func startSync() { _ = CloudSyncManager.shared }
}
