# صفحة الصف: رأسها، ومنتقي المهام والإعداد، والتبويبات، وتصفّح صفحات الصف الكبير، وأدوات التحكم
# في الصف، وسطر حداثة البيانات، والأعمال المعروضة على جهاز العرض، والإتقان، ومن يحتاجني، والخط
# الزمني، ولوحة الأدلة.

## رأس الصف.

class-join-code = رمز الانضمام
class-learners = المتعلّمون
class-open-help-requests = طلبات المساعدة المفتوحة
class-show-on-projector = العرض على جهاز العرض
class-show-on-projector-title = العرض على جهاز العرض (Ctrl+Shift+O)

## منتقي المهام.

class-assignment = المهمة
class-assignment-none = لا شيء بعد
class-assignment-option = { $pathway } — { $started ->
        [zero] لم يبدأ أحد
        [one] بدأ متعلّم واحد
        [two] بدأ متعلّمان
        [few] بدأ { $started } متعلّمين
        [many] بدأ { $started } متعلّمًا
       *[other] بدأ { $started } متعلّم
    }
class-assignment-option-due = { $pathway } — { $started ->
        [zero] لم يبدأ أحد
        [one] بدأ متعلّم واحد
        [two] بدأ متعلّمان
        [few] بدأ { $started } متعلّمين
        [many] بدأ { $started } متعلّمًا
       *[other] بدأ { $started } متعلّم
    }، الموعد النهائي { $due }

## إعداد الصف.

class-setup = إعداد الصف
class-assign-read-only = هذا المضيف للقراءة فقط: تُسنَد المسارات حيث يعمل.
class-assign-open = إسناد مسار…
class-assign-pathway = المسار
class-assign-step-kind = ({ $kind })
class-assign-step-kind-standard = ({ $kind }، { $standard })
class-assign-step-kind-assesses = ({ $kind }، تقييمية)
class-assign-step-kind-standard-assesses = ({ $kind }، { $standard }، تقييمية)
class-assign-due = الموعد النهائي
class-assign-note = ملاحظة للصف
class-assign-submit = إسناد
class-assign-cancel = إلغاء
class-roster-import = استيراد قائمة الطلاب (CSV: anonymous_id, display_name)
class-roster-nothing-imported = لم يُستورَد شيء: أصلِح هذه الصفوف.
class-roster-imported = { $count ->
        [zero] لم يُستورَد أي اسم.
        [one] استُورِد اسم واحد.
        [two] استُورِد اسمان.
        [few] استُورِدت { $count } أسماء.
        [many] استُورِد { $count } اسمًا.
       *[other] استُورِد { $count } اسم.
    }
class-roster-line-error = السطر { $line }: { $message }

## تبويبات صفحة الصف.

class-views = عروض الصف
class-tab-grid = الشبكة المباشرة
class-tab-mastery = الإتقان
class-tab-knowledge = خريطة المعرفة
class-tab-pathways = خريطة المسار
class-tab-needs = من يحتاجني
class-tab-timeline = الخط الزمني
class-tab-report = التقرير
class-tab-groups = المجموعات
class-grid-unassigned = أسنِد مسارًا لترى الشبكة المباشرة.

## تصفّح صفحات صف أكبر من أن تتسع له صفحة واحدة.

class-pager = صفحات المتعلّمين
class-pager-count = { $count ->
        [zero] { $shown } من { $count } متعلّم في هذه الصفحة
        [one] { $shown } من متعلّم واحد في هذه الصفحة
        [two] { $shown } من متعلّمَين في هذه الصفحة
        [few] { $shown } من { $count } متعلّمين في هذه الصفحة
        [many] { $shown } من { $count } متعلّمًا في هذه الصفحة
       *[other] { $shown } من { $count } متعلّم في هذه الصفحة
    }
class-pager-previous = الصفحة السابقة
class-pager-next = الصفحة التالية

## إدارة الصف: إيقاف الصف مؤقتًا وضبط وتيرة المسار.

class-room-paused = متوقف مؤقتًا
class-room-paused-message = { $paused } — «{ $message }»
class-room-running = الصف قيد العمل
class-room-pacing = { $pathway }: حتى الخطوة { $step }
class-room-pacing-titled = { $pathway }: حتى الخطوة { $step } ({ $title })
class-room-resume = استئناف الصف
class-room-message = رسالة إلى الصف (اختيارية)
class-room-message-placeholder = انظروا إلى هنا
class-room-pause = إيقاف الصف مؤقتًا
class-room-pacing-menu = الوتيرة
class-room-pace = وتيرة { $pathway }
class-room-no-limit = بلا حدّ
class-room-up-to-step = حتى الخطوة { $step }: { $title }

## سطر حداثة البيانات في رأس الصف: مدى حداثة العمل المعروض.

class-freshness-current = استُلم كل العمل حتى { $time }
class-freshness-current-heard = استُلم كل العمل حتى { $time } · منذ { $ago }
class-freshness-current-none = لا عمل بعد
class-freshness-current-none-heard = لا عمل بعد · منذ { $ago }
class-freshness-behind = يُعرض العمل حتى { $time } — جارٍ اللحاق بالمضيف
class-freshness-behind-none = لم يُستلَم أي عمل بعد — جارٍ اللحاق بالمضيف
class-freshness-unreachable = يُعرض العمل حتى { $time } — المضيف لا يستجيب
class-freshness-unreachable-none = لم يُستلَم أي عمل بعد — المضيف لا يستجيب
class-freshness-token-refused = يُعرض العمل حتى { $time } — رفض المضيف الرمز المميّز
class-freshness-token-refused-none = لم يُستلَم أي عمل بعد — رفض المضيف الرمز المميّز
class-freshness-not-followed = يُعرض العمل حتى { $time } — هذا الصف غير متابَع
class-freshness-not-followed-none = لم يُستلَم أي عمل بعد — هذا الصف غير متابَع

## إجابات الطلاب المعروضة على جهاز العرض (دون أسماء).

class-shown-work-take-down-title = على جهاز العرض: أزِلها
class-shown-work-show-title = اعرض هذه الإجابة على الصف (دون اسم)
class-shown-work-shown = معروضة
class-shown-work-show = اعرض على الصف
class-shown-work-title = { $count ->
        [zero] على جهاز العرض: لا إجابات
        [one] على جهاز العرض: إجابة واحدة
        [two] على جهاز العرض: إجابتان
        [few] على جهاز العرض: { $count } إجابات
        [many] على جهاز العرض: { $count } إجابةً
       *[other] على جهاز العرض: { $count } إجابة
    }
class-shown-work-take-down = إزالة
class-shown-work-take-all-down = إزالة الكل

## الإتقان: جدول الأدلة لكل معيار.

class-mastery-caption = الإتقان حسب المعيار (شاشتك الخاصة: كل الأعداد ظاهرة)
class-mastery-caption-suppressed = { $k ->
        [zero] الإتقان حسب المعيار (تُخفى المجموعات التي تضم أقل من { $k } متعلّم)
        [one] الإتقان حسب المعيار (تُخفى المجموعات التي تضم أقل من متعلّم واحد)
        [two] الإتقان حسب المعيار (تُخفى المجموعات التي تضم أقل من متعلّمَين)
        [few] الإتقان حسب المعيار (تُخفى المجموعات التي تضم أقل من { $k } متعلّمين)
        [many] الإتقان حسب المعيار (تُخفى المجموعات التي تضم أقل من { $k } متعلّمًا)
       *[other] الإتقان حسب المعيار (تُخفى المجموعات التي تضم أقل من { $k } متعلّم)
    }
class-mastery-standard = المعيار
class-mastery-evidence = الأدلة
class-mastery-attempts = المحاولات
class-mastery-hints = التلميحات
class-mastery-learners = المتعلّمون
class-mastery-all-standards = كل المعايير
class-mastery-no-standard = (بلا معيار)
class-mastery-correct = { $correct } من { $checked } صحيحة
class-mastery-not-enough = أدلة غير كافية (عدد ما فُحص: { $checked })
class-mastery-no-evidence = لا أدلة
class-mastery-fewer-than = أقل من { $k }
class-mastery-hidden = مخفي (لحماية مجموعة صغيرة)

## من يحتاجني: المتعلّمون الذين ينتظرون المعلّم، الأكثر إلحاحًا أولًا.

class-needs-nobody = لا أحد ينتظر.
class-needs-item = { $who } — { $reason } في { $step } { $waited }
class-needs-follow-up = طلب فائت — تابِعه
class-needs-help-request = طلب المساعدة
class-needs-struggling = { $count ->
        [zero] يواجه صعوبة: لا تحققات فاشلة
        [one] يواجه صعوبة: تحقق فاشل واحد
        [two] يواجه صعوبة: تحققان فاشلان
        [few] يواجه صعوبة: { $count } تحققات فاشلة
        [many] يواجه صعوبة: { $count } تحققًا فاشلًا
       *[other] يواجه صعوبة: { $count } تحقق فاشل
    }
class-needs-repeated-failures = { $count ->
        [zero] لا إكمالات غير صحيحة
        [one] إكمال واحد غير صحيح
        [two] إكمالان غير صحيحين
        [few] { $count } إكمالات غير صحيحة
        [many] { $count } إكمالًا غير صحيح
       *[other] { $count } إكمال غير صحيح
    }
class-ago-seconds = منذ { $s } ث
class-ago-minutes = منذ { $m } د
class-ago-hours = منذ { $h } س
class-open-student-page = فتح صفحة { $name }

## الخط الزمني: أحداث الصف عبر الزمن في رسم بياني.

class-timeline-series-completions = الإكمالات
class-timeline-series-struggles = الصعوبات
class-timeline-series-help-requests = طلبات المساعدة
class-timeline-series-other = أخرى
class-timeline-axis-events = الأحداث
class-timeline-caption = { $completions ->
        [zero] لا إكمالات
        [one] إكمال واحد
        [two] إكمالان
        [few] { $completions } إكمالات
        [many] { $completions } إكمالًا
       *[other] { $completions } إكمال
    }، { $struggles ->
        [zero] لا صعوبات
        [one] صعوبة واحدة
        [two] صعوبتان
        [few] { $struggles } صعوبات
        [many] { $struggles } صعوبةً
       *[other] { $struggles } صعوبة
    }، { $help ->
        [zero] لا طلبات مساعدة
        [one] طلب مساعدة واحد
        [two] طلبا مساعدة
        [few] { $help } طلبات مساعدة
        [many] { $help } طلبَ مساعدة
       *[other] { $help } طلب مساعدة
    } (فترات من { $seconds } ث)

## لوحة الأدلة: ما وراء خانة واحدة في الشبكة المباشرة.

class-evidence-title = { $who } — { $step }
class-evidence-close = إغلاق
class-evidence-close-title = إغلاق (Escape)
class-evidence-open-requests = { $count ->
        [zero] لا طلبات مساعدة مفتوحة
        [one] طلب مساعدة مفتوح واحد
        [two] طلبا مساعدة مفتوحان
        [few] { $count } طلبات مساعدة مفتوحة
        [many] { $count } طلبَ مساعدة مفتوحًا
       *[other] { $count } طلب مساعدة مفتوح
    }
class-evidence-no-completion = لا إكمال بعد.
class-evidence-kind = النوع
class-evidence-standard = المعيار
class-evidence-correct = صحيحة
class-evidence-attempts = المحاولات
class-evidence-hints = التلميحات
class-evidence-score = الدرجة
class-evidence-completed = وقت الإكمال
class-evidence-yes = نعم
class-evidence-no = لا
class-evidence-no-check = لم يُجرَ أي تحقق
class-evidence-details = التفاصيل التي أبلغت عنها الأداة
class-evidence-response = الإجابة { $response }
class-evidence-struggle = صعوبة: { $failed ->
        [zero] لا تحققات فاشلة
        [one] تحقق فاشل واحد
        [two] تحققان فاشلان
        [few] { $failed } تحققات فاشلة
        [many] { $failed } تحققًا فاشلًا
       *[other] { $failed } تحقق فاشل
    }، { $hints ->
        [zero] لا تلميحات
        [one] تلميح واحد
        [two] تلميحان
        [few] { $hints } تلميحات
        [many] { $hints } تلميحًا
       *[other] { $hints } تلميح
    }، { $at }
