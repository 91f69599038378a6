def solve(e, flag):
    if flag == 0:
        return e
    return solve(flag, e % flag)


line=input()
a, g=map(int, line.split(" "))
print(solve(a, g))

