# Settings: the teacher's choices for this computer (host, appearance, privacy threshold, where
# results are kept).

settings-title = Settings

## Appearance: the theme (radio buttons) and the language (a list).

settings-appearance = Appearance
settings-theme-system = Follow the system
settings-theme-light = Light
settings-theme-dark = Dark
settings-theme-high-contrast = High contrast
# The label of the language list. Its entries name each language in itself (English, Español,
# العربية); only the first entry is translated.
settings-language = Language
settings-language-system = Follow the system

## The pathway host the app follows.

settings-host-legend = Pathway host
settings-host-demo = The built-in demo host (a simulated class on this computer)
settings-host-custom = My school's host
settings-host-url = Host address
settings-host-token = Token
# Placeholder of the empty token field when a token is already saved.
settings-host-token-saved = (saved; leave empty to keep it)
settings-token-in-keyring = The token is kept in your system's credential store (keyring), not in the database.
settings-token-in-file = No system credential store answered on this computer, so the token is kept in a file only your user account can read (beside the database). It is never in the database.
settings-save = Save
settings-host-checking = Checking the host…
# Shown after the host's verdict sentence ("This host works with a2learn Teacher."), or alone.
settings-host-saved = Saved. The app now follows this host.
# Button under a verdict that says the host breaks a rule the dashboard needs.
settings-save-anyway = Save anyway
settings-host-classes = Classes on this host
# Beside a class title the app already follows.
settings-host-class-followed = followed
# Button beside a class title: follow that class.
settings-host-class-follow = Follow

## The smallest group (k) aggregates show.

# $min and $max are 5 and 30; "k" is the name of the setting, keep it.
settings-k-label = Smallest group shown in aggregates (k, { $min }–{ $max })
settings-k-save = Save k
# $count is at least 5.
settings-k-saved = { $count ->
    [one] Groups smaller than { $count } learner are hidden.
   *[other] Groups smaller than { $count } learners are hidden.
}

## Where results are kept: this computer or a school's shared store.

settings-store-legend = Where results are kept
settings-store-computer = This computer
settings-store-shared = My school's shared store (PostgreSQL)
settings-store-url = Shared store address (without the password)
settings-store-password = Password
settings-store-note = Names, drafts and your own settings stay on this computer either way. The password is kept in your system's credential store (where there is none, in a file only your user account can read), never in the database.
# The save button while the app connects to the shared store.
settings-store-connecting = Connecting…
settings-store-save = Save where results are kept
# $url is the store's address (postgres://…), shown as code.
settings-store-in-use = Results are kept in the shared store at { $url }.
settings-store-saved-shared = Saved: the shared store answered. The app keeps results there from its next start.
settings-store-saved-computer = Saved. The app keeps results on this computer from its next start.
settings-store-restart = Restart now to use it
