def helper():
    ii = str(input())  # loop
    stack = []
    f = 0
    while f<len(ii):
        if ii[f]!="B":
            stack.append(ii[f])
        elif stack:
            del stack[-1]
        f += 1
    print("".join(stack))
helper()
