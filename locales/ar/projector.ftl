# نافذة جهاز العرض: ما يراه الفصل كله على الحائط. أعداد وأسماء مستعارة فقط، ولا اسم أبدًا.

projector-window-title = a2learn Teacher — جهاز العرض
projector-loading = جارٍ التحميل…
projector-title = { $count ->
    [zero] فصلنا: لا متعلّمين
    [one] فصلنا: متعلّم واحد
    [two] فصلنا: متعلّمان
    [few] فصلنا: { $count } متعلّمين
    [many] فصلنا: { $count } متعلّمًا
   *[other] فصلنا: { $count } متعلّم
}
projector-help-title = المساعدة
projector-waiting = { $count ->
    [zero] لا أحد ينتظر المساعدة.
    [one] طلب واحد في الانتظار.
    [two] طلبان في الانتظار.
    [few] { $count } طلبات في الانتظار.
    [many] { $count } طلبًا في الانتظار.
   *[other] { $count } طلب في الانتظار.
}
projector-help-queue = قائمة انتظار المساعدة، الأسبق أولًا
projector-work-title = أعمالنا
projector-response-label = الإجابة { $letter }
projector-progress = التقدّم: { $title }
projector-step-done = أنهى { $done } من { $learners }
projector-step-done-working = أنهى { $done } من { $learners } · { $working } قيد العمل
projector-mastery-title = الإتقان حسب المعيار
projector-small-groups = لا تُعرض المجموعات التي تضم أقل من { $k } متعلّمين.
projector-standard = المعيار
projector-evidence = الأدلّة
projector-other-steps = خطوات أخرى
projector-knowledge-title = أين يقف الفصل
projector-pathway-map = أين يقف كل واحد: { $title }
projector-step = الخطوة
projector-step-numbered = { $n }. { $title }
projector-pacing-limit = · الوتيرة: حتى هنا
