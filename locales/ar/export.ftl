export-title = تصدير
export-no-classes = لا توجد فصول بعد: أنشئ فصلًا على اليمين، ثم صدّره من هنا.
export-intro = فصل كامل، أو واجب واحد، في ملف واحد. لا تحمل الملفات المصدَّرة إلا معرّفات مجهولة، وتُفحص بحثًا عن الأسماء وعناوين البريد الإلكتروني قبل كتابة أي شيء.
export-class = الفصل
export-assignment = الواجب
export-whole-class = الفصل كاملًا (كل الواجبات)
export-group = المتعلّمون
export-group-everyone = كل طلاب الصف
export-format = الصيغة
export-loading = جارٍ التحميل…

## الصيغ

export-format-csv = الخطوات (CSV)
export-format-csv-desc = صف لكل متعلّم × خطوة، لكل خطوة ضمن النطاق؛ والخطوة التي لم تكتمل بعد تُكتب not_completed.
export-format-standards-csv = المعايير لكل متعلّم (CSV)
export-format-standards-csv-desc = صف لكل متعلّم × معيار له أدلة: الخطوات المكتملة، والمصحَّحة، والصحيحة، والمحاولات، والتلميحات، ومتوسط الدرجة.
export-format-standards-summary = ملخّص المعايير (CSV)
export-format-standards-summary-desc = صف لكل معيار مع صف للإجمالي: بيانات مجمّعة للفصل، والمجموعة الأصغر من k تُكتب «أقل من k».
export-format-jsonl = أسطر JSON
export-format-jsonl-desc = سطر لكل تشغيل مكتمل لأداة: حمولة العقد المخزّنة، بايتًا ببايت.
export-format-xapi = عبارات xAPI ‏(JSON)
export-format-xapi-desc = عبارة xAPI 1.0.3 لكل تشغيل مكتمل لأداة، في مصفوفة JSON واحدة تُرسل (POST) إلى مخزن سجلات.
export-format-oneroster = OneRoster 1.1 ‏(zip)
export-format-oneroster-desc = ملفات CSV المجمّعة لـ OneRoster 1.1 في ملف zip: البيان، وبند تقييم لكل خطوة، والنتائج.
export-format-knowledge-map = خريطة المعرفة (JSON)
export-format-knowledge-map-desc = المعايير والمفاهيم الخاطئة مع عدد المتعلّمين في كل حالة (متقَن، فائت، …)، والمجموعة الأصغر من k تُكتب «أقل من k»؛ وروابط المتطلبات السابقة.

## مربع حوار الحفظ

export-filter-jsonl = أسطر JSON
export-filter-zip = أرشيف zip
# تبقى بالإنجليزية: اسم الملف يقبل حروفًا لاتينية فقط.
export-file-class = class
export-file-with-names = with-names

## الصفحة الرئيسية لـ xAPI

export-home-page = الصفحة الرئيسية لـ xAPI
export-home-page-help = قيمة homePage لحسابات الفاعلين وجذر معرّفات الأنشطة، مثل https://school.example. تُحفظ للتصدير القادم.
export-save = حفظ
export-saved = تم الحفظ.

## الأزرار

export-start = تصدير…
export-with-names = تصدير مع الأسماء…
export-names-note-projector-safe = غير متاح في وضع العرض الآمن.
export-names-note-no-rows = لا يحتوي الملخّص على صفوف لكل متعلّم: لا توجد أسماء لإضافتها.
export-names-note = يضيف أسماء الطلاب من قائمة الفصل المحفوظة على هذا الحاسوب.

## التحذير قبل التصدير مع الأسماء

export-confirm-title = سيحتوي هذا الملف على أسماء الطلاب
export-confirm-body = يربط التصدير مع الأسماء كل معرّف مجهول باسم الطالب من قائمة الفصل المحفوظة على هذا الحاسوب. ولا يُفحص بحثًا عن الأسماء، لأن الأسماء هي الغرض منه.
export-confirm-keep = أبقِه داخل أنظمة المدرسة.
export-confirm-keep-how = لا ترسله بالبريد الإلكتروني إلى خارج المدرسة، ولا ترفعه إلى خدمة أخرى، ولا تضعه على ذاكرة USB تأخذها إلى البيت.
export-confirm-no-roster = لم تُستورد قائمة لهذا الفصل: سيحمل الملف معرّفات مجهولة.
export-confirm-roster = { $count ->
    [zero] لا تضم قائمة هذا الفصل أي اسم.
    [one] تضم قائمة هذا الفصل اسمًا واحدًا.
    [two] تضم قائمة هذا الفصل اسمين.
    [few] تضم قائمة هذا الفصل { $count } أسماء.
    [many] تضم قائمة هذا الفصل { $count } اسمًا.
   *[other] تضم قائمة هذا الفصل { $count } اسم.
}
export-go-back = رجوع
export-confirm-names = أفهم ذلك: التصدير مع الأسماء…

## أثناء التصدير وبعده

export-choosing = اختر مكان حفظ الملف…
export-progress-label = تقدّم التصدير
export-progress-rows = { $total ->
    [zero] { $done } من { $total } صف
    [one] { $done } من صف واحد
    [two] { $done } من صفّين
    [few] { $done } من { $total } صفوف
    [many] { $done } من { $total } صفًّا
   *[other] { $done } من { $total } صف
}
export-counting-rows = جارٍ عدّ الصفوف
export-counting-rows-busy = جارٍ عدّ الصفوف…
export-cancelling = جارٍ الإلغاء…
export-cancel = إلغاء
export-done = { $exported } إلى { $path }
export-done-rows = { $count ->
    [zero] صُدِّر { $count } صف
    [one] صُدِّر صف واحد
    [two] صُدِّر صفّان
    [few] صُدِّرت { $count } صفوف
    [many] صُدِّر { $count } صفًّا
   *[other] صُدِّر { $count } صف
}
export-done-exported = تم التصدير
export-done-names = يحتوي هذا الملف على أسماء الطلاب: أبقِه داخل أنظمة المدرسة.
export-cancelled = أُلغي التصدير — لم يُكتب شيء.
export-blocked-title = حُظر التصدير: كان يحتوي على اسم أو عنوان بريد إلكتروني
export-blocked-why = لم يُكتب شيء. يُفحص كل تصدير دون أسماء بحثًا عن أسماء قائمة الفصل وعناوين البريد الإلكتروني، بما في ذلك النص الحر؛ وقد وُجد في هذا التصدير واحد في الصف والحقل المذكورين أعلاه (غالبًا طالب كتب اسمًا في إجابة). ولا تكرّر الرسالة الاسم نفسه أبدًا.
export-blocked-anyway = للتصدير على أي حال، اختر صيغة بلا نص حر (المعايير لكل متعلّم أو ملخّص المعايير)، أو، إن بقي الملف داخل أنظمة المدرسة، استخدم «تصدير مع الأسماء…».
export-failed = فشل التصدير: { $message }
