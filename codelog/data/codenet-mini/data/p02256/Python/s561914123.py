def main():

    A, B = (int(V) for V in input().split())
    da = set(D for D in range(1, A + 1) if A % D == 0)
    db = set(D for D in range(1, B + 1) if B % D == 0)

    # print answer
    print(max(da & db))


# 解答
main()
