# La página de la clase: su cabecera, el selector de asignaciones y la configuración, las pestañas,
# el paginador de una clase grande, los controles del aula, la línea de actualidad, el trabajo
# mostrado en el proyector, el dominio, quién me necesita, la cronología y el panel de evidencias.

## La cabecera de la clase.

class-join-code = Código para unirse
class-learners = Estudiantes
class-open-help-requests = Solicitudes de ayuda abiertas
class-show-on-projector = Mostrar en el proyector
class-show-on-projector-title = Mostrar en el proyector (Ctrl+Mayús+O)

## El selector de asignaciones.

class-assignment = Asignación
class-assignment-none = ninguna todavía
class-assignment-option = { $pathway } — { $started ->
        [one] { $started } ha empezado
       *[other] { $started } han empezado
    }
class-assignment-option-due = { $pathway } — { $started ->
        [one] { $started } ha empezado
       *[other] { $started } han empezado
    }, entrega: { $due }

## Configuración de la clase.

class-setup = Configuración de la clase
class-assign-read-only = Este servidor es de solo lectura: los itinerarios se asignan donde se ejecuta.
class-assign-open = Asignar un itinerario…
class-assign-pathway = Itinerario
class-assign-step-kind = ({ $kind })
class-assign-step-kind-standard = ({ $kind }, { $standard })
class-assign-step-kind-assesses = ({ $kind }, evalúa)
class-assign-step-kind-standard-assesses = ({ $kind }, { $standard }, evalúa)
class-assign-due = Fecha de entrega
class-assign-note = Nota para la clase
class-assign-submit = Asignar
class-assign-cancel = Cancelar
class-roster-import = Importar lista de clase (CSV: anonymous_id, display_name)
class-roster-nothing-imported = No se importó nada: corrige estas filas.
class-roster-imported = { $count ->
        [one] Se importó { $count } nombre.
       *[other] Se importaron { $count } nombres.
    }
class-roster-line-error = Línea { $line }: { $message }

## Las pestañas de la página de la clase.

class-views = Vistas de la clase
class-tab-grid = Cuadrícula en vivo
class-tab-mastery = Dominio
class-tab-knowledge = Mapa de conocimientos
class-tab-pathways = Mapa del itinerario
class-tab-needs = Quién me necesita
class-tab-timeline = Cronología
class-tab-report = Informe
class-tab-groups = Grupos
class-grid-unassigned = Asigna un itinerario para ver la cuadrícula en vivo.

## El paginador de una clase demasiado grande para una sola página.

class-pager = Páginas de estudiantes
class-pager-count = { $shown } de { $count ->
        [one] { $count } estudiante en esta página
       *[other] { $count } estudiantes en esta página
    }
class-pager-previous = Página anterior
class-pager-next = Página siguiente

## Dirigir el aula: pausar la clase y marcar el ritmo de un itinerario.

class-room-paused = En pausa
class-room-paused-message = { $paused } — «{ $message }»
class-room-running = Clase en marcha
class-room-pacing = { $pathway }: hasta el paso { $step }
class-room-pacing-titled = { $pathway }: hasta el paso { $step } ({ $title })
class-room-resume = Reanudar la clase
class-room-message = Mensaje para la clase (opcional)
class-room-message-placeholder = Miren aquí
class-room-pause = Pausar la clase
class-room-pacing-menu = Ritmo
class-room-pace = Ritmo de { $pathway }
class-room-no-limit = sin límite
class-room-up-to-step = hasta el paso { $step }: { $title }

## La línea de actualidad de la cabecera: cuán reciente es el trabajo mostrado.

class-freshness-current = Todo el trabajo recibido hasta las { $time }
class-freshness-current-heard = Todo el trabajo recibido hasta las { $time } · hace { $ago }
class-freshness-current-none = Aún no hay trabajo
class-freshness-current-none-heard = Aún no hay trabajo · hace { $ago }
class-freshness-behind = Mostrando el trabajo hasta las { $time } — poniéndose al día con el servidor
class-freshness-behind-none = Aún no se ha recibido trabajo — poniéndose al día con el servidor
class-freshness-unreachable = Mostrando el trabajo hasta las { $time } — el servidor no responde
class-freshness-unreachable-none = Aún no se ha recibido trabajo — el servidor no responde
class-freshness-token-refused = Mostrando el trabajo hasta las { $time } — el servidor rechazó el token
class-freshness-token-refused-none = Aún no se ha recibido trabajo — el servidor rechazó el token
class-freshness-not-followed = Mostrando el trabajo hasta las { $time } — no se está siguiendo esta clase
class-freshness-not-followed-none = Aún no se ha recibido trabajo — no se está siguiendo esta clase

## Respuestas de estudiantes mostradas en el proyector (sin nombre).

class-shown-work-take-down-title = En el proyector: quitarla
class-shown-work-show-title = Mostrar esta respuesta a la clase (sin nombre)
class-shown-work-shown = Mostrada
class-shown-work-show = Mostrar a la clase
class-shown-work-title = { $count ->
        [one] En el proyector: { $count } respuesta
       *[other] En el proyector: { $count } respuestas
    }
class-shown-work-take-down = Quitar
class-shown-work-take-all-down = Quitar todas

## Dominio: una tabla de evidencias por estándar.

class-mastery-caption = Dominio por estándar (tu propia pantalla: se muestran todos los recuentos)
class-mastery-caption-suppressed = { $k ->
        [one] Dominio por estándar (se ocultan los grupos de menos de { $k } estudiante)
       *[other] Dominio por estándar (se ocultan los grupos de menos de { $k } estudiantes)
    }
class-mastery-standard = Estándar
class-mastery-evidence = Evidencia
class-mastery-attempts = Intentos
class-mastery-hints = Pistas
class-mastery-learners = Estudiantes
class-mastery-all-standards = Todos los estándares
class-mastery-no-standard = (sin estándar)
class-mastery-correct = { $correct } de { $checked } correctas
class-mastery-not-enough = { $checked ->
        [one] evidencia insuficiente ({ $checked } revisada)
       *[other] evidencia insuficiente ({ $checked } revisadas)
    }
class-mastery-no-evidence = sin evidencia
class-mastery-fewer-than = menos de { $k }
class-mastery-hidden = oculto (protege a un grupo pequeño)

## Quién me necesita: los estudiantes que esperan al docente, los más urgentes primero.

class-needs-nobody = Nadie está esperando.
class-needs-item = { $who } — { $reason } en { $step } { $waited }
class-needs-follow-up = no atendida — hacer seguimiento
class-needs-help-request = pidió ayuda
class-needs-struggling = { $count ->
        [one] con dificultades: { $count } comprobación fallida
       *[other] con dificultades: { $count } comprobaciones fallidas
    }
class-needs-repeated-failures = { $count ->
        [one] { $count } finalización incorrecta
       *[other] { $count } finalizaciones incorrectas
    }
class-ago-seconds = hace { $s } s
class-ago-minutes = hace { $m } min
class-ago-hours = hace { $h } h
class-open-student-page = Abrir la página de { $name }

## La cronología: los eventos de la clase a lo largo del tiempo, en un gráfico.

class-timeline-series-completions = Finalizaciones
class-timeline-series-struggles = Dificultades
class-timeline-series-help-requests = Solicitudes de ayuda
class-timeline-series-other = Otros
class-timeline-axis-events = eventos
class-timeline-caption = { $completions ->
        [one] { $completions } finalización
       *[other] { $completions } finalizaciones
    }, { $struggles ->
        [one] { $struggles } dificultad
       *[other] { $struggles } dificultades
    }, { $help ->
        [one] { $help } solicitud de ayuda
       *[other] { $help } solicitudes de ayuda
    } (intervalos de { $seconds } s)

## El panel de evidencias: lo que hay detrás de una celda de la cuadrícula en vivo.

class-evidence-title = { $who } — { $step }
class-evidence-close = Cerrar
class-evidence-close-title = Cerrar (Esc)
class-evidence-open-requests = { $count ->
        [one] { $count } solicitud de ayuda abierta
       *[other] { $count } solicitudes de ayuda abiertas
    }
class-evidence-no-completion = Aún no hay ninguna finalización.
class-evidence-kind = Tipo
class-evidence-standard = Estándar
class-evidence-correct = Correcta
class-evidence-attempts = Intentos
class-evidence-hints = Pistas
class-evidence-score = Puntuación
class-evidence-completed = Completado
class-evidence-yes = sí
class-evidence-no = no
class-evidence-no-check = no se hizo ninguna comprobación
class-evidence-details = Detalles que informó el widget
class-evidence-response = Respuesta { $response }
class-evidence-struggle = Dificultad: { $failed ->
        [one] { $failed } comprobación fallida
       *[other] { $failed } comprobaciones fallidas
    }, { $hints ->
        [one] { $hints } pista
       *[other] { $hints } pistas
    }, { $at }
