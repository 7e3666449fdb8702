
//  CloudKitSyncEngine.swift


//  Main CloudKit sync engine using CKSyncEngine for robust iCloud sync.


import CloudKit






/// When playlist items arrive from CloudKit before their parent playlist,








































/// Main CloudKit sync engine that manages bidirectional sync between local SwiftData and iCloud.


final class CloudKitSyncEngine: @unchecked Sendable {



    static weak var current: CloudKitSyncEngine?



    private let container: CKContainer
    private let database: CKDatabase
    private let zoneManager: CloudKitZoneManager
    private var recordMapper: CloudKitRecordMapper
    private var conflictResolver: CloudKitConflictResolver





    /// Whether currently receiving changes from CloudKit.

















    /// The CloudKit zone all records live in (constant name, never changes).

























    /// UserDefaults key for storing the current iCloud account's record ID.


    /// UserDefaults key for CloudKit sync state.











































































            return "iCloud Account Active"

            return "No iCloud Account"

            return "iCloud Restricted"

            return "Checking iCloud..."

            return "iCloud Temporarily Unavailable"

            return "Unknown iCloud Status"









    /// Player controls layout service for importing/removing presets from CloudKit.














        // Initialize CloudKit
        self.container = CKContainer(identifier: AppIdentifiers.iCloudContainer)
        self.database = container.privateCloudDatabase


        self.zoneManager = CloudKitZoneManager(database: database)



        self.recordMapper = CloudKitRecordMapper(zone: tempZone)
        self.conflictResolver = CloudKitConflictResolver()


        CloudKitSyncEngine.current = self



            if settingsManager?.iCloudSyncEnabled == true {


                LoggingService.shared.logCloudKit("CloudKit sync disabled at startup, skipping engine setup")






    /// Enables CloudKit sync. Creates CKSyncEngine and starts syncing.


            LoggingService.shared.logCloudKit("Sync engine already enabled")


        LoggingService.shared.logCloudKit("Enabling CloudKit sync...")



    /// Disables CloudKit sync. Tears down CKSyncEngine.


            LoggingService.shared.logCloudKit("Sync engine already disabled")


        LoggingService.shared.logCloudKit("Disabling CloudKit sync...")
















        LoggingService.shared.logCloudKit("CloudKit sync disabled")







            LoggingService.shared.logCloudKit("setupSyncEngine already in progress, skipping re-entrant call")






        guard settingsManager?.iCloudSyncEnabled == true else {
            LoggingService.shared.logCloudKit("setupSyncEngine called but sync is disabled, skipping")




            // Check iCloud account status
            let status = try await container.accountStatus()


                let error = CloudKitError.iCloudNotAvailable(status: status)

                LoggingService.shared.logCloudKitError("iCloud not available", error: error)











            self.recordMapper = CloudKitRecordMapper(zone: zone)











            LoggingService.shared.logCloudKit(savedState != nil











            LoggingService.shared.logCloudKit("CKSyncEngine created")








                LoggingService.shared.logCloudKit("CloudKit sync engine initialized with new account (fresh sync state)")

                LoggingService.shared.logCloudKit("CloudKit sync engine initialized successfully")












            LoggingService.shared.logCloudKitError("Failed to setup sync engine", error: error)




    /// Checks if the iCloud account has changed and handles it by clearing sync state.





                container.fetchUserRecordID { recordID, error in





                        continuation.resume(throwing: NSError(domain: "CloudKitSyncEngine", code: -1, userInfo: [NSLocalizedDescriptionKey: "Failed to fetch user record ID"]))











                    LoggingService.shared.logCloudKit(
                        "iCloud account changed detected: \(storedID.prefix(8))... -> \(currentRecordName.prefix(8))... - clearing sync state"







                    LoggingService.shared.logCloudKit("iCloud account unchanged: \(currentRecordName.prefix(8))...")




                LoggingService.shared.logCloudKit("First iCloud account recorded: \(currentRecordName.prefix(8))...")





            LoggingService.shared.logCloudKitError("Failed to fetch user record ID for account tracking", error: error)
























        LoggingService.shared.logCloudKit("Cleared sync state for account change")








        let currentVersion = CloudKitRecordMapper.currentSchemaVersion




            LoggingService.shared.logCloudKit("Schema version upgraded (\(storedVersion) -> \(currentVersion)), cleared sync state for full re-fetch")














            LoggingService.shared.logCloudKitError("Failed to load sync state", error: error)











            LoggingService.shared.logCloudKitError("Failed to save sync state", error: error)





    /// Whether CloudKit sync is enabled in settings.

        settingsManager?.iCloudSyncEnabled ?? false





































            LoggingService.shared.logCloudKit("Sync skipped: sync disabled or engine not ready")








            LoggingService.shared.logCloudKit("Fetching remote changes...")


            LoggingService.shared.logCloudKit("fetchChanges() completed (\(pendingCount) pending changes)")



                LoggingService.shared.logCloudKit("Sending \(pendingCount) pending changes...")






            LoggingService.shared.logCloudKit("Sync completed successfully")



            LoggingService.shared.logCloudKitError("Sync failed", error: error)





















        LoggingService.shared.logCloudKit("Queued subscription save: \(subscription.channelID)")








        LoggingService.shared.logCloudKit("Queued subscription delete: \(channelID)")


    /// Upload all existing local subscriptions to CloudKit (for initial sync).
    /// Call this when enabling iCloud sync for the first time.


            LoggingService.shared.logCloudKit("Cannot upload: sync disabled or data manager unavailable")






        LoggingService.shared.logCloudKit("Starting initial bulk upload of local subscriptions...")





            LoggingService.shared.logCloudKit("No local subscriptions to upload")













        LoggingService.shared.logCloudKit("Queued \(subscriptions.count) existing subscriptions for initial upload")







    /// Whether a watch entry is eligible for iCloud sync.














            LoggingService.shared.logCloudKit("Skipping local-folder watch entry: \(watchEntry.videoID)")





        LoggingService.shared.logCloudKit("Queued watch entry save: \(watchEntry.videoID)")








        LoggingService.shared.logCloudKit("Queued watch entry delete: \(videoID)")


    /// Upload all existing local watch history to CloudKit (for initial sync).
    /// Call this when enabling iCloud sync for the first time.


            LoggingService.shared.logCloudKit("Cannot upload: sync disabled or data manager unavailable")






        LoggingService.shared.logCloudKit("Starting initial bulk upload of local watch history...")






            LoggingService.shared.logCloudKit("No local watch history to upload")











        LoggingService.shared.logCloudKit("Queued \(watchHistory.count) existing watch entries for initial upload")













        LoggingService.shared.logCloudKit("Queued bookmark save: \(bookmark.videoID)")








        LoggingService.shared.logCloudKit("Queued bookmark delete: \(videoID)")


    /// Upload all existing local bookmarks to CloudKit (for initial sync).
    /// Call this when enabling iCloud sync for the first time.


            LoggingService.shared.logCloudKit("Cannot upload: sync disabled or data manager unavailable")






        LoggingService.shared.logCloudKit("Starting initial bulk upload of local bookmarks...")





            LoggingService.shared.logCloudKit("No local bookmarks to upload")











        LoggingService.shared.logCloudKit("Queued \(bookmarks.count) existing bookmarks for initial upload")





















        LoggingService.shared.logCloudKit("Queued playlist save: \(playlist.title)")








        LoggingService.shared.logCloudKit("Queued playlist delete: \(playlistID)")








        LoggingService.shared.logCloudKit("Queued playlist item delete: \(itemID)")


    /// Upload all existing local playlists to CloudKit (for initial sync).


            LoggingService.shared.logCloudKit("Cannot upload: sync disabled or data manager unavailable")






        LoggingService.shared.logCloudKit("Starting initial bulk upload of local playlists...")



            LoggingService.shared.logCloudKit("No local playlists to upload")



















        LoggingService.shared.logCloudKit("Queued \(playlists.count) existing playlists for initial upload")











        LoggingService.shared.logCloudKit("Queued search history save: \(searchHistory.query)")








        LoggingService.shared.logCloudKit("Queued search history delete: \(id)")


    /// Upload all existing local search history to CloudKit (for initial sync).


            LoggingService.shared.logCloudKit("Cannot upload: sync disabled or data manager unavailable")






        LoggingService.shared.logCloudKit("Starting initial bulk upload of search history...")



            LoggingService.shared.logCloudKit("No local search history to upload")











        LoggingService.shared.logCloudKit("Queued \(searchHistory.count) search history entries for initial upload")











        LoggingService.shared.logCloudKit("Queued recent channel save: \(recentChannel.channelID)")








        LoggingService.shared.logCloudKit("Queued recent channel delete: \(channelID)")


    /// Upload all existing recent channels to CloudKit (for initial sync).


            LoggingService.shared.logCloudKit("Cannot upload: sync disabled or data manager unavailable")






        LoggingService.shared.logCloudKit("Starting initial bulk upload of recent channels...")



            LoggingService.shared.logCloudKit("No recent channels to upload")











        LoggingService.shared.logCloudKit("Queued \(recentChannels.count) recent channels for initial upload")











        LoggingService.shared.logCloudKit("Queued recent playlist save: \(recentPlaylist.playlistID)")








        LoggingService.shared.logCloudKit("Queued recent playlist delete: \(playlistID)")


    /// Upload all existing recent playlists to CloudKit (for initial sync).


            LoggingService.shared.logCloudKit("Cannot upload: sync disabled or data manager unavailable")






        LoggingService.shared.logCloudKit("Starting initial bulk upload of recent playlists...")



            LoggingService.shared.logCloudKit("No recent playlists to upload")











        LoggingService.shared.logCloudKit("Queued \(recentPlaylists.count) recent playlists for initial upload")











        LoggingService.shared.logCloudKit("Queued channel notification settings save: \(settings.channelID)")








        LoggingService.shared.logCloudKit("Queued channel notification settings delete: \(channelID)")


    /// Upload all existing channel notification settings to CloudKit (for initial sync).


            LoggingService.shared.logCloudKit("Cannot upload: sync disabled or data manager unavailable")






        LoggingService.shared.logCloudKit("Starting initial bulk upload of channel notification settings...")



            LoggingService.shared.logCloudKit("No channel notification settings to upload")











        LoggingService.shared.logCloudKit("Queued \(allSettings.count) channel notification settings for initial upload")





    /// Upload all local controls presets to CloudKit (for initial sync when enabling category).


            LoggingService.shared.logCloudKit("Cannot upload controls presets: sync disabled or settings category disabled")






        LoggingService.shared.logCloudKit("Starting upload of local controls presets...")





            LoggingService.shared.logCloudKit("No controls presets to upload")











        LoggingService.shared.logCloudKit("Queued \(presets.count) controls presets for upload")












        LoggingService.shared.logCloudKit("Queued controls preset save: \(preset.name)")








        LoggingService.shared.logCloudKit("Queued controls preset delete: \(id)")







































































        LoggingService.shared.logCloudKit("Flushing \(pendingChangesCount) pending changes before background")



    /// Handle a remote push notification by fetching changes from CloudKit.



            LoggingService.shared.logCloudKit("handleRemoteNotification: sync engine not ready, ignoring")


        LoggingService.shared.logCloudKit("Handling remote notification — fetching changes")





    /// Fetch remote changes from CloudKit. Used when the app returns to foreground




                LoggingService.shared.logCloudKit("fetchRemoteChanges skipped: sync disabled")

                LoggingService.shared.logCloudKit("fetchRemoteChanges skipped: sync engine not ready (nil)")




        LoggingService.shared.logCloudKit("Fetching remote changes on foreground")





            LoggingService.shared.logCloudKit("Foreground fetch completed")

            LoggingService.shared.logCloudKitError("Foreground fetch failed", error: error)







        LoggingService.shared.logCloudKit("Starting foreground polling (every \(Int(foregroundPollInterval))s)")












        LoggingService.shared.logCloudKit("Stopped foreground polling")






















        LoggingService.shared.logCloudKit("Migrated \(saveNames.count) legacy pending saves, \(deleteNames.count) legacy pending deletes")














                LoggingService.shared.logCloudKit("Loaded \(deferredPlaylistItems.count) deferred playlist items from previous session")


            LoggingService.shared.logCloudKitError("Failed to load deferred playlist items", error: error)















            LoggingService.shared.logCloudKit("Persisted \(deferredPlaylistItems.count) deferred playlist items")

            LoggingService.shared.logCloudKitError("Failed to persist deferred playlist items", error: error)













        LoggingService.shared.logCloudKit("Retrying \(deferredPlaylistItems.count) deferred playlist items...")








                LoggingService.shared.logCloudKit("Dropping deferred item (parent playlist pending delete): \(deferredItem.itemID)")








                LoggingService.shared.logCloudKitError("Failed to deserialize deferred record", error: NSError(domain: "CloudKitSyncEngine", code: -1, userInfo: nil))













                    LoggingService.shared.logCloudKit("Successfully applied deferred item on retry \(deferredItem.retryCount): \(deferredItem.itemID)")











                LoggingService.shared.logCloudKit("Max retries (\(maxDeferralRetries)) exceeded for item \(deferredItem.itemID) - creating placeholder playlist")




                LoggingService.shared.logCloudKit("Keeping item \(deferredItem.itemID) for retry \(deferredItem.retryCount + 1)/\(maxDeferralRetries)")




        LoggingService.shared.logCloudKit("Retry complete: \(successCount) succeeded, \(itemsToKeep.count) still deferred")















            description: "This playlist is waiting for data from iCloud"




        LoggingService.shared.logCloudKit("Created placeholder playlist: \(playlistID)")














            LoggingService.shared.logCloudKit("Attached item \(item.id) to playlist \(playlist.id)")

            LoggingService.shared.logCloudKitError("Failed to attach item to playlist", error: error)



    /// Refreshes sync by clearing local sync state (tokens) without deleting the CloudKit zone.

    /// Unlike `resetSync()`, this preserves all CloudKit records.


            LoggingService.shared.logCloudKit("Refresh sync skipped: sync disabled")



        LoggingService.shared.logCloudKit("Refreshing sync state (clearing local tokens)...")

















        LoggingService.shared.logCloudKit("Refresh sync completed")
























        LoggingService.shared.logCloudKit("Sync reset completed")




    /// Refreshes the cached iCloud account status


            accountStatus = try await container.accountStatus()

            LoggingService.shared.logCloudKitError("Failed to check account status", error: error)











            // Non-CloudKit errors should always be shown























































































            LoggingService.shared.logCloudKit("Network unavailable, will retry when connection returns")



            LoggingService.shared.logCloudKitError("CloudKit quota exceeded", error: error)
            syncError = CloudKitError.quotaExceeded


            LoggingService.shared.logCloudKitError("User not signed into iCloud", error: error)
            syncError = CloudKitError.notAuthenticated


            LoggingService.shared.logCloudKit("Zone not found, recreating...")






            LoggingService.shared.logCloudKitError("Partial sync failure", error: error)






                            LoggingService.shared.logCloudKit("Record already exists in CloudKit, will merge on next fetch: \(id)")


                            LoggingService.shared.logCloudKitError("Failed to sync record: \(id)", error: itemError)


                        LoggingService.shared.logCloudKitError("Failed to sync record: \(id)", error: itemError)





            LoggingService.shared.logCloudKitError("CloudKit error: \(ckError.code.rawValue)", error: error)













extension CloudKitSyncEngine: CKSyncEngineDelegate {








                LoggingService.shared.logCloudKit("Fetched \(changes.modifications.count) modifications, \(changes.deletions.count) deletions")















                    LoggingService.shared.logCloudKit("Sync state updated and saved (\(stateSize) bytes)")




                    LoggingService.shared.logCloudKit("iCloud account change event received - reinitializing sync engine")





                    LoggingService.shared.logCloudKit("CKSyncEngine will fetch changes (auto-triggered)")



                    LoggingService.shared.logCloudKit("CKSyncEngine finished fetching changes")






                    LoggingService.shared.logCloudKit("Unknown sync engine event")














            LoggingService.shared.logCloudKit("Preparing batch from \(pendingChanges.count) pending changes")























        LoggingService.shared.logCloudKit("Skipping save for \(recordName) — no matching local data")




















































































































        LoggingService.shared.logCloudKit("Cannot materialize record with unknown prefix: \(recordName)")






        LoggingService.shared.logCloudKit("Sent \(changes.savedRecords.count) saves, \(changes.deletedRecordIDs.count) deletions (\(changes.failedRecordSaves.count) failed saves, \(changes.failedRecordDeletes.count) failed deletes)")































                LoggingService.shared.logCloudKitError("No server record in conflict error for \(recordName)", error: error)






                LoggingService.shared.logCloudKitError(















            LoggingService.shared.logCloudKit("Resolved \(serverRecord.recordType) conflict for \(recordName), retrying (attempt \(attempts + 1))")






            LoggingService.shared.logCloudKit("Record \(recordName) missing on server, retrying as insert")







            LoggingService.shared.logCloudKit("Zone missing for \(recordName), recreating and retrying")





            LoggingService.shared.logCloudKit("Transient error (\(error.code.rawValue)) for \(recordName), will retry")




            LoggingService.shared.logCloudKitError("Unrecoverable error for \(recordName), dropping change", error: error)














            LoggingService.shared.logCloudKit("Transient error (\(error.code.rawValue)) deleting \(recordID.recordName), will retry")


            LoggingService.shared.logCloudKitError("Unrecoverable error deleting \(recordID.recordName), dropping change", error: error)



























            LoggingService.shared.logCloudKit("Unknown record type \(server.recordType), using server version")






    /// zone (reset from another device, iCloud data purge, encrypted data reset)



        LoggingService.shared.logCloudKit("Fetched database changes")





        LoggingService.shared.logCloudKit("Zone '\(RecordType.zoneName)' was deleted remotely - recreating and re-uploading local data")










            LoggingService.shared.logCloudKitError("Failed to recreate zone after remote deletion", error: error)



    /// Handle fetched changes from CloudKit.























                    LoggingService.shared.logCloudKit("Added item to deferred queue: \(itemID), playlist: \(playlistID)")
















                LoggingService.shared.logCloudKit("Cleaned up placeholder for deleted playlist: \(playlist.id)")












            LoggingService.shared.logCloudKit("Updated lastSyncDate after receiving \(changes.modifications.count) modifications, \(changes.deletions.count) deletions")









            LoggingService.shared.logCloudKit("Skipping incoming record (pending local delete): \(record.recordID.recordName)")








                LoggingService.shared.logCloudKit("Skipping playlist item (parent playlist pending delete): \(record.recordID.recordName)")


































                    LoggingService.shared.logCloudKit("Merged subscription from iCloud (conflict resolved): \(subscription.channelID)")







                    // New subscription from iCloud










                    LoggingService.shared.logCloudKit("Added subscription from iCloud: \(subscription.channelID)")







                    LoggingService.shared.logCloudKit("Ignoring incoming local-folder watch entry: \(watchEntry.videoID)")






























                    LoggingService.shared.logCloudKit("Merged watch entry from iCloud (conflict resolved): \(watchEntry.videoID)")







                    // New watch entry from iCloud





                    LoggingService.shared.logCloudKit("Added watch entry from iCloud: \(watchEntry.videoID)")







































                    LoggingService.shared.logCloudKit("Merged bookmark from iCloud (conflict resolved): \(bookmark.videoID)")







                    // New bookmark from iCloud





                    LoggingService.shared.logCloudKit("Added bookmark from iCloud: \(bookmark.videoID)")
























                        LoggingService.shared.logCloudKit("Upgraded placeholder to real playlist: \(playlist.title)")


















                        LoggingService.shared.logCloudKit("Merged playlist from iCloud (conflict resolved): \(playlist.title)")








                    // New playlist from iCloud





                    LoggingService.shared.logCloudKit("Added playlist from iCloud: \(playlist.title)")


























                    LoggingService.shared.logCloudKit("Merged playlist item from iCloud (conflict resolved): \(item.videoID)")







                    // New item from iCloud - need to find parent playlist








                        LoggingService.shared.logCloudKit("Added playlist item from iCloud: \(item.videoID)")


                        LoggingService.shared.logCloudKit("Deferring playlist item (parent not yet available): \(item.id)")



                        LoggingService.shared.logCloudKitError("Playlist item has no playlistID", error: NSError(domain: "CloudKitSyncEngine", code: -1, userInfo: [NSLocalizedDescriptionKey: "Playlist item missing playlistID"]))


























                    LoggingService.shared.logCloudKit("Merged search history from iCloud (conflict resolved): \(searchHistory.query)")







                    // New search history from iCloud





                    LoggingService.shared.logCloudKit("Added search history from iCloud: \(searchHistory.query)")





























                    LoggingService.shared.logCloudKit("Merged recent channel from iCloud (conflict resolved): \(recentChannel.channelID)")







                    // New recent channel from iCloud





                    LoggingService.shared.logCloudKit("Added recent channel from iCloud: \(recentChannel.channelID)")





























                    LoggingService.shared.logCloudKit("Merged recent playlist from iCloud (conflict resolved): \(recentPlaylist.playlistID)")







                    // New recent playlist from iCloud





                    LoggingService.shared.logCloudKit("Added recent playlist from iCloud: \(recentPlaylist.playlistID)")

















                LoggingService.shared.logCloudKit("Applied channel notification settings from iCloud: \(settings.channelID)")







                    LoggingService.shared.logCloudKit("Skipping controls preset - wrong device class: \(preset.deviceClass)")

















                LoggingService.shared.logCloudKit("Applied controls preset from iCloud: \(preset.name)")


                LoggingService.shared.logCloudKit("Received unknown record type: \(record.recordType)")

        } catch let cloudKitError as CloudKitError {




            LoggingService.shared.logCloudKitError("Failed to parse \(record.recordType) record: \(cloudKitError.localizedDescription)", error: cloudKitError)


            LoggingService.shared.logCloudKitError("Failed to apply remote \(record.recordType) record", error: error)








    /// nothing is echoed back to CloudKit.















                LoggingService.shared.logCloudKit("Deleted subscription from iCloud: \(channelID)")







                LoggingService.shared.logCloudKit("Deleted watch entry from iCloud: \(videoID)")







                LoggingService.shared.logCloudKit("Deleted bookmark from iCloud: \(videoID)")







                LoggingService.shared.logCloudKit("Deleted playlist from iCloud: \(playlistID)")







                LoggingService.shared.logCloudKit("Deleted playlist item from iCloud: \(itemID)")







                LoggingService.shared.logCloudKit("Deleted search history from iCloud: \(searchID)")






                LoggingService.shared.logCloudKit("Deleted recent channel from iCloud: \(channelID)")






                LoggingService.shared.logCloudKit("Deleted recent playlist from iCloud: \(playlistID)")






                LoggingService.shared.logCloudKit("Deleted channel notification settings from iCloud: \(channelID)")








                LoggingService.shared.logCloudKit("Deleted controls preset from iCloud: \(presetID)")










































// MARK: - CloudKit Errors

enum CloudKitError: Error, LocalizedError, Sendable {
    case iCloudNotAvailable(status: CKAccountStatus)













        case .iCloudNotAvailable(let status):
            "iCloud is not available (status: \(status))"

            "Not signed into iCloud. Sign in to Settings to enable sync."

            "iCloud storage quota exceeded. Free up space in iCloud settings."



            "Record not found in CloudKit"











