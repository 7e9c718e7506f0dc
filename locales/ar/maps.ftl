# خريطتا الصف: خريطة المعارف (المعايير، وعدد المتعلّمين في كل حالة) وخريطة المسار (الخطوات، وعدد
# المتعلّمين الذين أنهوا كلًّا منها).

## الخريطتان كلتاهما.

maps-show-as = العرض
maps-show-map = خريطة
maps-show-table = جدول
maps-groups-under-k = لا تُعرض المجموعات التي تقل عن { $k }.
maps-learners-on = المتعلّمون في { $title }
maps-close = إغلاق
maps-group-count = { $group } ({ $count })
maps-list-separator = {"، "}
maps-fewer-than = أقل من { $k }
maps-hidden-small-group = مخفي (لحماية مجموعة صغيرة)

## خريطة المعارف.

maps-knowledge-map = خريطة المعارف
maps-no-standard = لا يوجد أي معيار في المسارات المسنَدة بعد.
maps-states = الحالات
maps-state-known = يعرفه
maps-state-missed = أخطأ فيه
maps-state-dont-know = لا يعرفه بعد
maps-state-taught = دُرِّس له
maps-state-candidate = لم يصادفه بعد
maps-knowledge-graph-title = المعايير ومتطلباتها السابقة (الجدول يعرض الشيء نفسه)
maps-state-count = { $state }: { $count }
maps-standard-summary = { $title }: { $counts }
maps-misconception-title = مفهوم خاطئ: { $name } ({ $count ->
    [zero] لا متعلّمين
    [one] متعلّم واحد
    [two] متعلّمان
    [few] { $count } متعلّمين
    [many] { $count } متعلّمًا
   *[other] المتعلّمون: { $count }
})
maps-misconception-label = { $name } · { $count }
maps-knowledge-table-caption = المتعلّمون في كل حالة، لكل معيار
maps-standard = المعيار
maps-builds-on = يبني على
maps-misconceptions-caption = المفاهيم الخاطئة الظاهرة
maps-misconception = المفهوم الخاطئ
maps-learners = المتعلّمون

## خريطة المسار.

maps-pathway-map = خريطة المسار
maps-assign-a-pathway = أسنِد مسارًا لترى خريطته.
maps-class-size = { $count ->
    [zero] لا متعلّمين
    [one] متعلّم واحد
    [two] متعلّمان
    [few] { $count } متعلّمين
    [many] { $count } متعلّمًا
   *[other] { $count } متعلّم
}
maps-paced-up-to-step = الإيقاع حتى الخطوة { $step }
maps-not-paced = بلا حدّ للإيقاع
maps-pathway-finished = · أنهى { $count } المسار
maps-in-pathway = ({ $pathway })
maps-statuses = الحالات
maps-legend-done = أنهوها
maps-legend-current = الحالية (أول خطوة لم تُنهَ)
maps-legend-upcoming = القادمة
maps-legend-pacing-limit = حدّ الإيقاع
maps-status-done = أنهوها
maps-status-current = الحالية
maps-status-upcoming = القادمة
maps-step-done = أنهوها: { $count }
maps-step-current = الحالية: { $count }
maps-step-upcoming = القادمة: { $count }
maps-fewer-than-short = <{ $k }
maps-hidden = مخفي
maps-pacing-up-to-here = الإيقاع: حتى هنا
maps-after-pacing-limit = بعد حدّ الإيقاع
maps-after-limit = بعد الحدّ
maps-step-summary = { $position }. { $title }: { $details }
maps-step-title = { $position }. { $title }
maps-pathway-graph-title = خطوات { $title } بالترتيب (الجدول يعرض الشيء نفسه)
maps-pathway-table-caption = المتعلّمون الذين أنهوا كل خطوة من { $title } أو يعملون عليها أو لم يصلوا إليها بعد
maps-step = الخطوة
maps-pacing = الإيقاع
maps-step-number = { $position }.
