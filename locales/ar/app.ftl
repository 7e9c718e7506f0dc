# نافذة المعلّم حول العروض: الترويسة، والشريط الجانبي، وصفحة الترحيب، وشريط الحالة، ومفتاح وضع
# العرض الآمن، وقائمة اختصارات لوحة المفاتيح.

## الإطار وصفحة الترحيب.

app-error-title = حدث خطأ ما
app-try-again = أعد المحاولة
app-welcome-title = مرحبًا
app-welcome-loading = جارٍ تحميل فصولك…
# قائمة الفصول في الشريط الجانبي (على اليمين في نافذة من اليمين إلى اليسار).
app-welcome-choose-class = اختر فصلًا من الشريط الجانبي لترى تقدّمه.
app-welcome-demo-coming = يجري إعداد الفصل التجريبي: يبدأ متعلّموه المحاكَون بعد لحظات، وسيُفتح هنا.
app-welcome-host-not-answering = خادم مدرستك لا يستجيب. تحقّق من عنوانه في الإعدادات، أو أعد المحاولة عند عودة الشبكة.
app-welcome-token-refused = رفض خادم مدرستك رمز الوصول. أدخل في الإعدادات الرمز الذي أعطاك إياه.
app-welcome-no-classes = لا توجد فصول على خادم مدرستك بعد. أنشئ فصلًا من الشريط الجانبي، أو تابع فصلًا موجودًا لدى الخادم.

## الشريط الجانبي.

app-sidebar-classes = الفصول
app-sidebar-loading = جارٍ التحميل…
app-sidebar-no-classes = لا توجد فصول بعد
app-sidebar-learners = { $count ->
    [zero] لا متعلّمين
    [one] متعلّم واحد
    [two] متعلّمان
    [few] { $count } متعلّمين
    [many] { $count } متعلّمًا
   *[other] { $count } متعلّم
}
app-sidebar-open-requests = { $count ->
    [zero] لا طلبات مساعدة مفتوحة
    [one] طلب مساعدة مفتوح واحد
    [two] طلبا مساعدة مفتوحان
    [few] { $count } طلبات مساعدة مفتوحة
    [many] { $count } طلبًا مفتوحًا للمساعدة
   *[other] { $count } طلب مساعدة مفتوح
}
app-sidebar-help-desk = مكتب المساعدة
app-sidebar-waiting = { $count ->
    [zero] لا أحد ينتظر
    [one] واحد ينتظر
    [two] اثنان ينتظران
    [few] { $count } ينتظرون
    [many] { $count } ينتظرون
   *[other] { $count } ينتظرون
}
app-sidebar-export = تصدير
app-sidebar-read-only = هذا الخادم للقراءة فقط: تُنشأ فصوله حيث يعمل.
app-sidebar-settings = الإعدادات
app-sidebar-diagnostics = التشخيص
app-new-class-label = فصل جديد
app-new-class-create = إنشاء
app-new-class-needs-title = يحتاج الفصل إلى عنوان.

## شريط الحالة: الاتصال بالخادم وإصدار التطبيق.

app-status-connection = الاتصال بالخادم
app-status-host-unknown = الخادم: …
app-status-host-not-configured = الخادم: لم يُضبط أي خادم
app-status-host-connecting = الخادم: جارٍ الاتصال
app-status-host-connected = الخادم: متصل
app-status-host-reconnecting-in = الخادم: إعادة الاتصال بعد { $seconds } ث
app-status-host-reconnecting = الخادم: جارٍ إعادة الاتصال
app-status-host-offline = الخادم: غير متصل
app-status-host-token-refused = الخادم: رُفض رمز الوصول
app-status-version = الإصدار { $version }

## وضع العرض الآمن.

app-projector-safe-tooltip = وضع العرض الآمن ({ $keys })
app-projector-safe-on = العرض الآمن: مفعّل
app-projector-safe-off = العرض الآمن: معطّل

## قائمة اختصارات لوحة المفاتيح. أسماء المفاتيح تبقى كما هي مطبوعة عليها.

app-shortcuts-open = الاختصارات
app-shortcuts-title = اختصارات لوحة المفاتيح
app-shortcuts-close = إغلاق
app-shortcut-key-arrows = مفاتيح الأسهم
app-shortcut-projector-safe = تفعيل وضع العرض الآمن أو تعطيله
app-shortcut-projector = عرض الفصل على جهاز العرض
app-shortcut-grid-move = الشبكة المباشرة: التنقّل بين الخلايا
app-shortcut-grid-row-ends = الشبكة المباشرة: الخطوة الأولى أو الأخيرة في الصف (مع Ctrl: الخلية الأولى أو الأخيرة)
app-shortcut-grid-page = الشبكة المباشرة: عشرة متعلّمين إلى الأعلى أو الأسفل
app-shortcut-grid-open = الشبكة المباشرة: فتح أدلّة الخلية
app-shortcut-close = إغلاق لوحة الأدلّة (أو هذه القائمة)
app-shortcut-help = عرض قائمة الاختصارات هذه

## أسماء المفاتيح كما تطبعها لوحات المفاتيح (لوحات المفاتيح العربية تطبعها بالإنجليزية).

app-key-ctrl = Ctrl
app-key-shift = Shift
app-key-home = Home
app-key-end = End
app-key-page-up = Page Up
app-key-page-down = Page Down
app-key-enter = Enter
app-key-escape = Esc
