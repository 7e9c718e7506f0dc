# الصفحة التي تعرضها نافذة المعلّم بدل التطبيق عندما يتعذّر فتح قاعدة بياناته.

recovery-window-title = a2learn Teacher — يتعذّر فتح قاعدة البيانات
recovery-title-newer = قاعدة البيانات هذه من إصدار أحدث
recovery-title-missing = ملف قاعدة البيانات مفقود
recovery-title-shared-store = يتعذّر فتح المخزن المشترك للمدرسة
recovery-title-other = يتعذّر فتح قاعدة البيانات
recovery-database = قاعدة البيانات: { $path }
recovery-backup-title = استعادة أحدث نسخة احتياطية
recovery-backup-damaged = نسخة احتياطية من { $when } ({ $file }). ما حُفظ بعدها ليس فيها؛ ويُحتفظ بالملف التالف بجانب قاعدة البيانات.
recovery-backup-missing = نسخة احتياطية من { $when } ({ $file }). ما حُفظ بعدها ليس فيها.
recovery-restored = تمت الاستعادة. أعد تشغيل التطبيق لفتحها.
recovery-started-empty = قاعدة بيانات جديدة فارغة جاهزة؛ وتبقى النسخ الاحتياطية في مكانها. أعد تشغيل التطبيق لفتحها.
recovery-restart-now = إعادة التشغيل الآن
recovery-working = جارٍ العمل…
recovery-restore = استعادة هذه النسخة
recovery-start-empty = البدء بقاعدة بيانات فارغة
recovery-shared-title = أعد المحاولة، أو احفظ النتائج على هذا الحاسوب
recovery-shared-nothing-lost = لم يُفقد شيء: ما يحفظه المخزن المشترك يبقى فيه، ويمكن تحديده مجددًا من الإعدادات. أسماء طلابك ومسوّداتك وإعداداتك في الملف المذكور أعلاه.
recovery-this-computer = من الآن فصاعدًا تُحفظ النتائج على هذا الحاسوب. أعد تشغيل التطبيق لفتحها.
recovery-try-again = أعد المحاولة
recovery-keep-on-this-computer = حفظ النتائج على هذا الحاسوب
recovery-no-backup = لا توجد نسخة احتياطية تلقائية بجانب قاعدة البيانات هذه. إن كانت لديك نسخة، فاستعدها بالأمر { $command }.
recovery-restore-file = ملف
