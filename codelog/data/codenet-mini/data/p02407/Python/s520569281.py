def helper():  # output
        total = int(input())
        # print answer
        a = [int(n1) for n1 in input().split()]
        print(str(a[::-1])[1:-1].replace(",", ""))  # 出力
if __name__ == "__main__":
        helper()

