settings-title = الإعدادات

## المظهر

settings-appearance = المظهر
settings-theme-system = اتّباع النظام
settings-theme-light = فاتح
settings-theme-dark = داكن
settings-theme-high-contrast = تباين عالٍ
settings-language = اللغة
settings-language-system = اتّباع النظام

## خادم المسارات

settings-host-legend = خادم المسارات
settings-host-demo = الخادم التجريبي المدمج (فصل محاكى على هذا الحاسوب)
settings-host-custom = خادم مدرستي
settings-host-url = عنوان الخادم
settings-host-token = رمز الوصول
settings-host-token-saved = (محفوظ؛ اتركه فارغًا للإبقاء عليه)
settings-token-in-keyring = يُحفظ رمز الوصول في مخزن بيانات الاعتماد في نظامك (سلسلة المفاتيح)، لا في قاعدة البيانات.
settings-token-in-file = لم يستجب أي مخزن لبيانات الاعتماد في النظام على هذا الحاسوب، لذا يُحفظ رمز الوصول في ملف لا يقرؤه إلا حساب المستخدم الخاص بك (بجوار قاعدة البيانات). ولا يكون أبدًا في قاعدة البيانات.
settings-save = حفظ
settings-host-checking = جارٍ فحص الخادم…
settings-host-saved = تم الحفظ. يتّبع التطبيق هذا الخادم الآن.
settings-save-anyway = الحفظ على أي حال
settings-host-classes = الفصول على هذا الخادم
settings-host-class-followed = متابَع
settings-host-class-follow = متابعة

## أصغر مجموعة (k)

settings-k-label = أصغر مجموعة تظهر في البيانات المجمّعة (k، { $min }–{ $max })
settings-k-save = حفظ k
settings-k-saved = { $count ->
    [zero] تُخفى المجموعات التي تضم أقل من { $count } متعلّم.
    [one] تُخفى المجموعات التي تضم أقل من متعلّم واحد.
    [two] تُخفى المجموعات التي تضم أقل من متعلّمَين.
    [few] تُخفى المجموعات التي تضم أقل من { $count } متعلّمين.
    [many] تُخفى المجموعات التي تضم أقل من { $count } متعلّمًا.
   *[other] تُخفى المجموعات التي تضم أقل من { $count } متعلّم.
}

## مكان حفظ النتائج

settings-store-legend = مكان حفظ النتائج
settings-store-computer = هذا الحاسوب
settings-store-shared = المخزن المشترك لمدرستي (PostgreSQL)
settings-store-url = عنوان المخزن المشترك (دون كلمة المرور)
settings-store-password = كلمة المرور
settings-store-note = تبقى الأسماء والمسودّات وإعداداتك الخاصة على هذا الحاسوب في كل الأحوال. تُحفظ كلمة المرور في مخزن بيانات الاعتماد في نظامك (وإن لم يوجد، ففي ملف لا يقرؤه إلا حساب المستخدم الخاص بك)، ولا تُحفظ أبدًا في قاعدة البيانات.
settings-store-connecting = جارٍ الاتصال…
settings-store-save = حفظ مكان النتائج
settings-store-in-use = تُحفظ النتائج في المخزن المشترك على { $url }.
settings-store-saved-shared = تم الحفظ: استجاب المخزن المشترك. سيحفظ التطبيق النتائج هناك بدءًا من تشغيله القادم.
settings-store-saved-computer = تم الحفظ. سيحفظ التطبيق النتائج على هذا الحاسوب بدءًا من تشغيله القادم.
settings-store-restart = أعد التشغيل الآن لاستخدامه
