























































	fileprivate var identifier = UIBackgroundTaskInvalid
	fileprivate var isInBackground = false
	
	public static var Container: CKContainer {
		get {
			if let string = UserDefaults.standard.object(forKey: "container") as? String, string == "iCloud.com.districtapp.CloudKit-CoreData"  {
				return CKContainer(identifier: "iCloud.com.districtapp.CloudKit-CoreData")
			}
			else {
				#if BETA
				return CKContainer(identifier: "iCloud.com.districtapp.CloudKit-CoreData")
				#elseif DEBUG
				return CKContainer(identifier: "iCloud.com.districtapp.CloudKit-CoreData")
				#else
				return CKContainer(identifier: "iCloud.com.districtapp.CloudKit-CoreData")
				#endif
			}
		}
