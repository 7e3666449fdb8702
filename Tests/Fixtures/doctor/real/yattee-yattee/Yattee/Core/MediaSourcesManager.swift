


















    private let iCloudSourcesKey = "syncedMediaSources"









    private var isImportingFromiCloud = false
    private var iCloudObserver: NSObjectProtocol?













        observeiCloudChanges()
        // Import or refresh network sources from iCloud on startup
        importFromiCloudOnStartupIfNeeded()


    /// Imports or refreshes network sources (WebDAV and SMB) from iCloud on startup.
    /// - If no local network sources exist: imports all from iCloud (first-time setup).
    /// - If local network sources differ from iCloud: replaces local with iCloud data

    private func importFromiCloudOnStartupIfNeeded() {
        guard iCloudSyncEnabled else {
            LoggingService.shared.debug("MediaSources startup: iCloud sync disabled, skipping import", category: .cloudKit)





        guard let data = ubiquitousStore.data(forKey: iCloudSourcesKey),


            LoggingService.shared.debug("MediaSources startup: No network sources in iCloud", category: .cloudKit)



        let iCloudNetworkSources = exports.compactMap { $0.toMediaSource() }



            LoggingService.shared.info("MediaSources startup: Importing \(iCloudNetworkSources.count) network sources from iCloud", category: .cloudKit)
            sources.append(contentsOf: iCloudNetworkSources)


        } else if networkSources != iCloudNetworkSources {
            // Existing sources differ from iCloud - refresh from iCloud

            LoggingService.shared.info("MediaSources startup: Refreshing \(iCloudNetworkSources.count) network sources from iCloud (local differs)", category: .cloudKit)
            isImportingFromiCloud = true
            defer { isImportingFromiCloud = false }

            sources = localFolderSources + iCloudNetworkSources



            LoggingService.shared.debug("MediaSources startup: Local sources match iCloud, no update needed", category: .cloudKit)



















        syncToiCloudIfNeeded()












        syncToiCloudIfNeeded()












            syncToiCloudIfNeeded()










            syncToiCloudIfNeeded()

















    /// All network sources (WebDAV and SMB) that can be synced to iCloud.












































































    /// Password syncs to iCloud Keychain when iCloud sync is enabled for media sources.







        let syncEnabled = shouldSyncCredentialsToiCloud

























                details: "iCloudSync=\(syncEnabled)"





















































































































    // MARK: - iCloud Sync

    /// Whether iCloud sync is enabled and media sources sync is enabled.
    private var iCloudSyncEnabled: Bool {
        settingsManager?.iCloudSyncEnabled == true && settingsManager?.syncMediaSources == true


    /// Whether credentials should sync to iCloud Keychain (when iCloud sync is enabled for media sources).
    private var shouldSyncCredentialsToiCloud: Bool {
        iCloudSyncEnabled


    /// Syncs network sources to iCloud if sync is enabled and not currently importing.
    private func syncToiCloudIfNeeded() {
        guard iCloudSyncEnabled, !isImportingFromiCloud else { return }
        syncToiCloud()


    /// Syncs all network sources (WebDAV and SMB) to iCloud.

    func syncToiCloud() {
        guard iCloudSyncEnabled else {
            LoggingService.shared.debug("MediaSources: iCloud sync disabled, skipping", category: .cloudKit)







        LoggingService.shared.info("MediaSources: Syncing \(exports.count) network sources to iCloud", category: .cloudKit, details: sourceNames)


            ubiquitousStore.set(data, forKey: iCloudSourcesKey)

            LoggingService.shared.debug("MediaSources: Synced to iCloud successfully", category: .cloudKit)



    /// Replaces local network sources (WebDAV and SMB) with iCloud data.

    func replaceWithiCloudData() {
        guard let data = ubiquitousStore.data(forKey: iCloudSourcesKey),

            LoggingService.shared.debug("MediaSources: replaceWithiCloudData - No data in iCloud or decode failed", category: .cloudKit)



        isImportingFromiCloud = true
        defer { isImportingFromiCloud = false }


        LoggingService.shared.info("MediaSources: Replacing with \(exports.count) network sources from iCloud", category: .cloudKit, details: sourceNames)





        let iCloudNetworkSources = exports.compactMap { $0.toMediaSource() }

        // Merge: local folders + iCloud network sources
        sources = localFolderSources + iCloudNetworkSources








    /// Observes iCloud key-value store changes.
    private func observeiCloudChanges() {
        iCloudObserver = NotificationCenter.default.addObserver(










                LoggingService.shared.debug("MediaSources: iCloud external change - reason=\(changeReason ?? -1), keys=\(changedKeys)", category: .cloudKit)



            guard changedKeys.contains(self.iCloudSourcesKey) else {

                    LoggingService.shared.debug("MediaSources: iCloud change not for media sources key, ignoring", category: .cloudKit)








                guard self.iCloudSyncEnabled else {
                    LoggingService.shared.debug("MediaSources: iCloud sync disabled, ignoring external change", category: .cloudKit)



                LoggingService.shared.info("MediaSources: Processing iCloud external change", category: .cloudKit)
                self.replaceWithiCloudData()





















