# coding: utf-8
# AtCoder Beginner Contest 111 - AtCoder Beginner Contest 999
def resolve():
        # O(N)
        s=str(input())
        print(s.replace("1", "a").replace("9", "1").replace("a", "9"))


if __name__ == "__main__":
        resolve()
