from django.urls import URLPattern, URLResolver, path

from ledger.people import views

app_name = "people"

urlpatterns: list[URLPattern | URLResolver] = [
    path("me/", views.me, name="me"),
    path("me/talon-my-data.json", views.me_data, name="me_data"),
    path("me/evenings.csv", views.me_evenings_csv, name="me_evenings_csv"),
    path("people/claims/", views.claims, name="claims"),
    path("people/claims/<int:claim_id>/decide/", views.claim_decide, name="claim_decide"),
    path("people/claims/<int:claim_id>/drop/", views.claim_drop, name="claim_drop"),
    path("people/claim/share/<str:token>/", views.claim_from_share, name="claim_from_share"),
    path("people/claim/member/<str:token>/", views.claim_from_member, name="claim_from_member"),
    path("people/claim/table/<int:table_id>/", views.claim_from_table, name="claim_from_table"),
]
