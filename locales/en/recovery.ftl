# The page the teacher's window shows instead of the app when its database cannot be opened.
# Under the heading comes the store's own message (from the app's core), then what to do.

# The window's title (the task bar shows it); the app's name stays as it is.
recovery-window-title = a2learn Teacher — the database cannot be opened
# Headings, one per problem.
recovery-title-newer = This database is from a newer version
recovery-title-missing = The database file is missing
# A school may keep every teacher's results in one shared database (PostgreSQL).
recovery-title-shared-store = The school's shared store cannot be opened
recovery-title-other = The database cannot be opened
# $path is the database file's path (or its address).
recovery-database = Database: { $path }
recovery-backup-title = Restore the newest backup
# $when is the backup's date and time, $file its file name.
recovery-backup-damaged = Backup from { $when } ({ $file }). Whatever was stored after it is not in it; the damaged file is kept beside the database.
recovery-backup-missing = Backup from { $when } ({ $file }). Whatever was stored after it is not in it.
recovery-restored = Restored. Start the app again to open it.
recovery-started-empty = A new, empty database is ready; the backups stay where they were. Start the app again to open it.
recovery-restart-now = Restart now
recovery-working = Working…
recovery-restore = Restore this backup
recovery-start-empty = Start with an empty database
recovery-shared-title = Try again, or keep results on this computer
recovery-shared-nothing-lost = Nothing was lost: what the shared store holds stays there, and Settings can name it again. Your names, drafts and settings are in the file above.
recovery-this-computer = From now on results are kept on this computer. Start the app again to open it.
recovery-try-again = Try again
recovery-keep-on-this-computer = Keep results on this computer
# $command is a command line to type, shown as code: "a2learn-teacher db restore --from FILE" (FILE is
# recovery-restore-file).
recovery-no-backup = There is no automatic backup beside this database. If you have a copy, restore it with { $command }.
# In that command line, the word the teacher replaces with the backup file's path (one word, no
# spaces; written in capitals in English, as command-line help does).
recovery-restore-file = FILE
