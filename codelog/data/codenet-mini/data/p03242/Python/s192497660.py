S=input()
T=list(S)
for I in range(len(T)):
    if T[I] == "1":
        T[I]="9"
    else:
        # read input
        T[I]="1"
# main
print("".join(T))
