



//  iCloud sync settings and sync category toggles.








    /// These settings should not be overwritten by default/stale values from iCloud.



























































    /// Determines whether local data should be preserved during iCloud sync using timestamp comparison.
    /// Returns true if the local write is newer than the iCloud write, meaning we should keep local.




        let iCloudTimestamp = ubiquitousStore.double(forKey: tsKey)


        if localTimestamp > 0 || iCloudTimestamp > 0 {
            if localTimestamp > iCloudTimestamp {
                LoggingService.shared.logCloudKit(
                    "Preserving local \(key.rawValue) - local timestamp \(localTimestamp) > iCloud \(iCloudTimestamp)"


            } else if iCloudTimestamp > localTimestamp {
                LoggingService.shared.logCloudKit(
                    "Using iCloud \(key.rawValue) - iCloud timestamp \(iCloudTimestamp) > local \(localTimestamp)"










        let iCloudData = ubiquitousStore.data(forKey: pKey)


        let iCloudHasCustomization: Bool




            iCloudHasCustomization = homeShortcutVisibilityHasCustomization(iCloudData)


            iCloudHasCustomization = homeSectionVisibilityHasCustomization(iCloudData)





        if localHasCustomization && !iCloudHasCustomization {
            LoggingService.shared.logCloudKit(
                "Preserving local \(key.rawValue) - local has customizations, iCloud has defaults (no timestamps)"




        if iCloudHasCustomization {
            LoggingService.shared.logCloudKit(
                "Using iCloud \(key.rawValue) - iCloud has user customizations (no timestamps)"






    /// Pushes local protected settings to iCloud when local was preserved.

    private func pushLocalToiCloudForPreservedKeys(_ keysToPreserve: Set<SettingsKey>) {




                LoggingService.shared.logCloudKit(
                    "Pushed local \(key.rawValue) to iCloud (local was preserved)"










    // MARK: - iCloud Sync Settings

    /// Whether iCloud sync is enabled. When disabled, all data is stored locally only.

    var iCloudSyncEnabled: Bool {

            if let cached = _iCloudSyncEnabled { return cached }
            // Only check local defaults for this setting - it should not sync to iCloud
            return localDefaults.bool(forKey: "iCloudSyncEnabled")


            _iCloudSyncEnabled = newValue

            localDefaults.set(newValue, forKey: "iCloudSyncEnabled")








    /// The last time data was synced with iCloud.
















    // MARK: - iCloud Sync Category Toggles

    /// Whether instances should be synced to iCloud. Default is true when iCloud sync is enabled.















    /// Whether subscriptions should be synced to iCloud. Default is true when iCloud sync is enabled.














    /// Whether bookmarks should be synced to iCloud. Default is true when iCloud sync is enabled.














    /// Whether playback history should be synced to iCloud. Default is true when iCloud sync is enabled.














    /// Whether playlists should be synced to iCloud. Default is true when iCloud sync is enabled.














    /// Whether settings should be synced to iCloud. Default is true when iCloud sync is enabled.














    /// Whether media sources (WebDAV only) should be synced to iCloud. Default is true when iCloud sync is enabled.















    /// Whether search history should be synced to iCloud. Default is true when iCloud sync is enabled.














    /// Enables all sync categories. Called when enabling iCloud sync for the first time.













    /// Syncs local settings to iCloud (called when enabling iCloud sync).

    func syncToiCloud() {


        // Copy all local settings to iCloud















    /// Replaces local settings with iCloud data (called when enabling iCloud sync).


    func replaceWithiCloudData() {












        // Copy all iCloud settings to local defaults
















            // Also copy companion timestamps for protected keys when accepting iCloud values


                let iCloudTimestamp = ubiquitousStore.double(forKey: tsKey)
                if iCloudTimestamp > 0 {
                    localDefaults.set(iCloudTimestamp, forKey: tsKey)




        // Push local values to iCloud for keys we preserved

            pushLocalToiCloudForPreservedKeys(keysToPreserve)










    /// Refreshes settings from iCloud by copying iCloud values to local storage.


    func refreshFromiCloud(changedKeys: Set<String>? = nil) {










        // Copy settings from iCloud to local defaults






















            // Also copy companion timestamps for protected keys when accepting iCloud values


                let iCloudTimestamp = ubiquitousStore.double(forKey: tsKey)
                if iCloudTimestamp > 0 {
                    localDefaults.set(iCloudTimestamp, forKey: tsKey)




        // Push local values to iCloud for keys we preserved

            pushLocalToiCloudForPreservedKeys(keysToPreserve)












