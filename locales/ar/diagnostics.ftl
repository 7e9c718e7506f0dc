diagnostics-title = التشخيص
diagnostics-loading = جارٍ التحميل…

## الإطارات المعزولة

diagnostics-quarantine-title = الإطارات المعزولة
diagnostics-quarantine-empty = لا توجد إطارات معزولة: التزم كل حدث حتى الآن بالعقد.
diagnostics-by-rule = المرفوضة، حسب القاعدة
diagnostics-rule-count = { $rule }: { $count }
diagnostics-recent = الأحدث
diagnostics-col-seq = التسلسل
diagnostics-col-rule = القاعدة
diagnostics-col-why = السبب
diagnostics-col-frame = الإطار (كما وصل)
diagnostics-raw-cut = { $bytes ->
    [zero] (مقتطع، { $bytes } بايت)
    [one] (مقتطع، بايت واحد)
    [two] (مقتطع، بايتان)
    [few] (مقتطع، { $bytes } بايتات)
    [many] (مقتطع، { $bytes } بايتًا)
   *[other] (مقتطع، { $bytes } بايت)
}

## الخادم

diagnostics-host-title = الخادم
diagnostics-host-check = فحص الخادم
diagnostics-host-checking = جارٍ فحص كل قواعد واجهة الخادم (نحو 20 ثانية)…
diagnostics-host-works = هذا الخادم يعمل مع a2learn Teacher.
diagnostics-host-breaks = هذا الخادم يخالف قاعدة تحتاجها لوحة المتابعة: { $what } ({ $section }).
diagnostics-host-breaks-detail = هذا الخادم يخالف قاعدة تحتاجها لوحة المتابعة: { $what } ({ $section }). { $detail }
diagnostics-check-col-result = النتيجة
diagnostics-check-col-rule = القاعدة
diagnostics-check-col-where = المصدر
diagnostics-check-col-seen = ما لوحظ
diagnostics-check-passed = ناجح
diagnostics-check-failed = فاشل
diagnostics-check-advice = نصيحة
diagnostics-check-skipped = متخطّى
